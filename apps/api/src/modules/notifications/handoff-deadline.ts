import type { NotificationRow } from './serialize-notification.ts';

/**
 * What a handoff notification says about its deadline, as of the moment it goes out: an e-mail held
 * through quiet hours, or sent again after a failure, must not promise the minutes that have passed.
 * The clock time is in the owner's zone, for a message read later than it was sent.
 */
export function replyByText(replyBy: Date, now: Date, timeZone: string): string {
  const left = replyBy.getTime() - now.getTime();
  if (left <= 0) {
    return (
      'Nobody replied in time, so the assistant told the visitor nobody is available and answered again. ' +
      'You can still reply in the conversation.'
    );
  }
  const minutes = Math.round(left / 60_000);
  const within = minutes < 1 ? 'less than a minute' : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const clock = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(replyBy);
  return `Reply within ${within} (by ${clock}); after that the assistant tells the visitor nobody is available and answers again.`;
}

/** A notification's body as a channel sends it now: with a handoff's deadline told as of `now`. */
export function bodyAsOf(
  row: Pick<NotificationRow, 'body' | 'replyBy'>,
  now: Date,
  timeZone: string,
): string {
  if (!row.replyBy) return row.body;
  return [row.body, replyByText(row.replyBy, now, timeZone)].filter(Boolean).join('\n\n');
}
