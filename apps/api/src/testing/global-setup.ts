import { buildTemplate, dropTemplate, TEMPLATE_ENV } from '@cairn/db/testing';
import { PgBoss } from 'pg-boss';
import { jobsDatabase } from '../plugins/jobs-database.ts';

/** Builds the migrated template every test file clones (with the job-queue schema in it). */
export default async function setup() {
  const template = await buildTemplate(async (database) => {
    const boss = new PgBoss({ db: jobsDatabase(database), supervise: false, schedule: false });
    await boss.start();
    await boss.stop({ graceful: false });
  });
  process.env[TEMPLATE_ENV] = template;
  return async () => dropTemplate(template);
}
