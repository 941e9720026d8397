import { type RunningServer, startServer } from './server';

/**
 * A worker-scoped `server` fixture whose server may fetch loopback addresses
 * (ALLOW_PRIVATE_URLS=true), for specs whose local "web sites" play the internet.
 */
export const serverAllowingPrivateUrls: [
  (args: object, use: (server: RunningServer) => Promise<void>) => Promise<void>,
  { scope: 'worker'; timeout: number },
] = [
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
  async ({}, use: (server: RunningServer) => Promise<void>) => {
    const server = await startServer({ ALLOW_PRIVATE_URLS: 'true' });
    await use(server);
    await server.stop();
  },
  { scope: 'worker', timeout: 90_000 },
];
