import type { Ctx } from '../../lib/ctx.ts';
import { applicationRowsOf } from '../../lib/find-application.ts';
import { serializeApplication } from './serialize-application.ts';

export async function listApplications({ db }: Pick<Ctx, 'db'>, ownerId: number) {
  return (await applicationRowsOf(db, ownerId)).map(serializeApplication);
}
