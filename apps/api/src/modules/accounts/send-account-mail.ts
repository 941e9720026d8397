import type { FastifyInstance } from 'fastify';
import type { RenderedMail } from '../../mail/templates.ts';

/**
 * Account mail is sent while the request waits, so a token never sits in a job table in clear.
 * A failed send is logged, not shown: the user can ask again (resend, forgot password).
 */
export async function sendAccountMail(app: FastifyInstance, to: string, mail: RenderedMail): Promise<void> {
  try {
    await app.mailer.send(to, mail);
  } catch (err) {
    app.log.error({ err, subject: mail.subject }, 'sending account e-mail failed');
  }
}

export const linkTo = (app: FastifyInstance, pathname: string, token: string) =>
  `${app.config.publicUrl}${pathname}?token=${encodeURIComponent(token)}`;
