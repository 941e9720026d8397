import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // The workspace package is TypeScript source; let Vite bundle it instead of externalising it in SSR.
  ssr: { noExternal: ['@cairn/contracts'] },
  build: { sourcemap: false },
});
