import { buildTemplate, dropTemplate, TEMPLATE_ENV } from '@cairn/db/testing';
import PgBoss from 'pg-boss';

/** Builds the migrated template every test file clones (with the job-queue schema in it). */
export default async function setup() {
  const template = await buildTemplate(async (database) => {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => database.query(text, values) },
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.stop({ graceful: false, wait: true });
  });
  process.env[TEMPLATE_ENV] = template;
  return async () => dropTemplate(template);
}
