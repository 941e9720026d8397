import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // WEB_BUILD_DIR: the e2e run builds into its own directory (see e2e/global-setup.ts).
  buildDirectory: process.env.WEB_BUILD_DIR ?? 'build',
  ssr: true,
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
