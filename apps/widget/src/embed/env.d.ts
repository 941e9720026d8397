/** esbuild bundles imported CSS into embed.css beside embed.js. */
declare module '*.css';
