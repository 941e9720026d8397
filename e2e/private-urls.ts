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
    const previous = process.env.ALLOW_PRIVATE_URLS;
    process.env.ALLOW_PRIVATE_URLS = 'true';
    const server = await startServer();
    if (previous === undefined) delete process.env.ALLOW_PRIVATE_URLS;
    else process.env.ALLOW_PRIVATE_URLS = previous;
    await use(server);
    await server.stop();
  },
  { scope: 'worker', timeout: 90_000 },
];
