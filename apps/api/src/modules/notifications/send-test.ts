import { randomUUID } from 'node:crypto';
import { NOTIFICATION_EVENT_LABELS } from '@cairn/contracts/notifications';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { pushTo } from './deliver-push.ts';
import { postToOwnerSlack, SlackPostError } from './deliver-slack.ts';
import { notificationMail } from './notification-mail.ts';
import { recordNotification } from './record-notification.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

/** "Send me a test": at once, whatever the delay and quiet hours say. */
export async function sendTest(
  app: FastifyInstance,
  user: AuthUser,
  channel: 'email' | 'in_app' | 'push' | 'slack',
) {
  if (channel === 'slack') {
    let posted: boolean;
    try {
      posted = await postToOwnerSlack(
        app,
        user.id,
        {
          title: 'Test message from Cairn',
          body: 'This is how Cairn tells this channel that something needs you.',
          url: new URL('/settings/notification-profile', app.config.publicUrl).href,
        },
        { id: randomUUID(), rerun: false },
      );
    } catch (error) {
      if (error instanceof SlackPostError) throw new AppError('unavailable', error.message);
      throw error;
    }
    if (!posted) throw new AppError('invalid', 'Choose a Slack bot and a channel, and save, first.');
    return { channel, sent_to: 'slack' };
  }
  if (channel === 'push') {
    const accepted = await pushTo(app, user.id, {
      title: 'Test push from Cairn',
      body: 'This is how Cairn tells this browser that something needs you.',
      url: new URL('/settings/notification-profile', app.config.publicUrl).href,
      tag: 'cairn-test',
    });
    if (accepted === 0)
      throw new AppError('invalid', 'No browser accepted it: turn on browser push here first.');
    return { channel, sent_to: `${accepted} ${accepted === 1 ? 'browser' : 'browsers'}` };
  }
  if (channel === 'in_app') {
    await recordNotification(app, user.id, {
      event: 'test',
      title: 'Test notification',
      body: 'This is how Cairn tells you something needs you.',
      link: '/settings/notification-profile',
    });
    return { channel, sent_to: 'in_app' };
  }
  await app.mailer.send(
    user.email,
    notificationMail({
      title: 'Test e-mail from Cairn',
      body: 'This is how Cairn e-mails you when a visitor asks for a person.',
      url: new URL('/settings/notification-profile', app.config.publicUrl).href,
      eventLabel: NOTIFICATION_EVENT_LABELS.handoff_requested,
      unsubscribeUrl: unsubscribeUrl(app, user.id, 'handoff_requested'),
    }),
  );
  return { channel, sent_to: user.email };
}
