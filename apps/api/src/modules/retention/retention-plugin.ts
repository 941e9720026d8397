import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deleteExpiredConversations } from './delete-expired-conversations.ts';

export const RETENTION_QUEUE = 'conversation-retention';
/** Daily, at a quiet hour: the age rule is in days, so once a day deletes each conversation on time. */
export const RETENTION_CRON = '17 3 * * *';

/** The daily deletion of conversations older than their application's retention (decision 067). */
export default fp(async function retentionPlugin(app: FastifyInstance) {
  await app.jobs.define(RETENTION_QUEUE, {
    cron: RETENTION_CRON,
    work: {
      batchSize: 1,
      async handle() {
        const deleted = await deleteExpiredConversations(app, app.notifications.clock());
        if (deleted) app.log.info({ deleted }, 'deleted conversations past their retention');
      },
    },
  });
});
