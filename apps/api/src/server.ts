import path from 'node:path';
import { openDatabase } from '@cairn/db/client';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { mailDestination } from './lib/logger.ts';

/** The process: parse config, open and migrate the database, then serve and/or work by ROLE. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    // The build puts a migrated data-dir template beside the bundle (apps/api/dist); run from the
    // sources (tsx) there is none, and a new data dir runs initdb.
    templateDir: path.join(path.dirname(process.argv[1] ?? '.'), 'pglite-template'),
  });
  await database.migrate();
  const app = await buildApp({ config, database, runWorkers: config.role !== 'api' });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      // A second signal: stop now. What was under way is taken again once its lease runs out.
      app.log.warn({ signal }, 'stopping at once');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.lifecycle.drain(config.drainTimeoutMs);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const mail = `E-mails go to ${mailDestination(config)}`;
  if (config.role === 'worker') {
    await app.ready();
    app.log.info(`Cairn worker started (database: ${database.kind})`);
    app.log.info(mail);
    return;
  }
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Cairn is up at ${config.publicUrl} (listening on ${address}; database: ${database.kind}; role: ${config.role})`,
  );
  app.log.info(mail);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
