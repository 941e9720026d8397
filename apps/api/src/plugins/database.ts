import type { Database, Db } from '@cairn/db/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    db: Db;
  }
}

/** Exposes the already-open, migrated database; the process owns opening and closing it. */
export default fp(async function databasePlugin(app: FastifyInstance, opts: { database: Database }) {
  app.decorate('database', opts.database);
  app.decorate('db', opts.database.db);
});
