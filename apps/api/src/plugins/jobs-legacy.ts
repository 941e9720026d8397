import type { Database } from '@cairn/db/client';
import type { JobInsert } from 'pg-boss';

/**
 * pg-boss 12 migrates its schema only from pg-boss 11's (version 25) on, and refuses the one that
 * pg-boss 10 made (version 24), which every data dir and database before decision 063 has. So that
 * schema is set aside under another name, pg-boss 12 creates its own, and the jobs that were still
 * to run move across (decision 063).
 */
export const LEGACY_SCHEMA = 'pgboss_v10';
const LEGACY_VERSION = 24;

/**
 * Renames a pg-boss 10 schema out of pg-boss 12's way. One statement, so it is atomic: a second
 * process starting at the same time finds it done (or waits for it) and renames nothing.
 */
export async function setAsideLegacySchema(database: Database): Promise<void> {
  // Nested IFs: PL/pgSQL plans the inner query only when pgboss.version exists.
  await database.query(`DO $$ BEGIN
    IF to_regclass('pgboss.version') IS NOT NULL AND to_regnamespace('${LEGACY_SCHEMA}') IS NULL THEN
      IF (SELECT max(version) FROM pgboss.version) <= ${LEGACY_VERSION} THEN
        ALTER SCHEMA pgboss RENAME TO ${LEGACY_SCHEMA};
      END IF;
    END IF;
  END $$`);
}

interface LegacyJob {
  name: string;
  data: object | null;
  priority: number;
  retry_limit: number;
  retry_count: number;
  retry_delay: number;
  retry_backoff: boolean;
  start_after: Date;
  singleton_key: string | null;
  expire_in: number;
}

/**
 * Moves the jobs a pg-boss 10 schema still had to run (waiting, due for a retry, or taken by a
 * process that has since stopped) into pg-boss 12's queues, then drops that schema. Each job is
 * deleted as it is read, so two processes starting at once never both move it. Returns how many
 * moved. A crash between the two steps loses those jobs, as one before a job was sent would: the
 * rows are the truth and their sweeps queue them again.
 */
export async function moveLegacyJobs(
  database: Database,
  insert: (queue: string, jobs: JobInsert[]) => Promise<void>,
): Promise<number> {
  const { rows: present } = await database.query<{ present: boolean }>(
    `SELECT to_regclass('${LEGACY_SCHEMA}.job') IS NOT NULL AS present`,
  );
  if (!present[0]?.present) return 0;
  const { rows } = await database.query<LegacyJob>(
    `DELETE FROM ${LEGACY_SCHEMA}.job WHERE state IN ('created', 'retry', 'active')
     RETURNING name, data, priority, retry_limit, retry_count, retry_delay, retry_backoff, start_after,
       singleton_key, extract(epoch FROM expire_in)::int AS expire_in`,
  );
  const byQueue = Map.groupBy(rows, (row) => row.name);
  for (const [queue, jobs] of byQueue) {
    await insert(
      queue,
      jobs.map((job) => ({
        data: job.data ?? {},
        priority: job.priority,
        retryLimit: Math.max(job.retry_limit - job.retry_count, 0),
        retryDelay: job.retry_delay,
        retryBackoff: job.retry_backoff,
        startAfter: job.start_after,
        ...(job.singleton_key === null ? {} : { singletonKey: job.singleton_key }),
        expireInSeconds: job.expire_in,
      })),
    );
  }
  await database.query(`DROP SCHEMA IF EXISTS ${LEGACY_SCHEMA} CASCADE`);
  return rows.length;
}
