import type { Ctx } from '../../lib/ctx.ts';
import { EMAIL_QUEUE, queueNotificationEmail } from './deliver-email.ts';

/** An e-mail due this long without a job waiting for it lost its job. */
const GRACE_SECONDS = 120;

/**
 * Queues again the notification e-mails that are due and have no job to send them: the process
 * stopped between storing the notification and queueing its job, or died holding the job. A job
 * only wakes the row, which decides (a claim under way makes it wait), so a duplicate is harmless.
 * With `all` (at start on PGlite, where no other process can be working) an `active` job is known
 * dead too. Returns how many were queued.
 */
export async function sweepEmails(app: Ctx, options: { all?: boolean } = {}): Promise<number> {
  const all = options.all === true;
  const { rows } = await app.database.query<{ id: number; email_due_at: string | Date | null }>(
    `SELECT n.id, n.email_due_at FROM notifications n
      WHERE n.email_status = 'pending'
        AND ($1::boolean OR coalesce(n.email_due_at, n.created_at) < now() - make_interval(secs => $2))
        AND NOT EXISTS (
          SELECT 1 FROM pgboss.job j
           WHERE j.name = $3
             AND (j.state IN ('created', 'retry') OR (j.state = 'active' AND NOT $1::boolean))
             AND (j.data->>'notificationId')::int = n.id)
      ORDER BY n.id
      LIMIT 500`,
    [all, GRACE_SECONDS, EMAIL_QUEUE],
  );
  for (const row of rows) {
    await queueNotificationEmail(app, row.id, row.email_due_at ? new Date(row.email_due_at) : new Date(0));
  }
  if (rows.length)
    app.log.warn({ count: rows.length }, 'notification e-mails without a job were queued again');
  return rows.length;
}
