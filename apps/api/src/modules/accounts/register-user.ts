import { MESSAGES, type TRegisterRequest, type TRegisterResponse } from '@cairn/contracts/accounts';
import { users } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accountExistsMail, verifyEmailMail } from '../../mail/templates.ts';
import { issueEmailToken } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { afterResponse, linkTo, sendAccountMail } from './send-account-mail.ts';

/**
 * Answers the same, in the same time, whether the address is new or already has an account (no
 * enumeration, decision 057): the request does the same work either way (hash, one insert that may
 * do nothing); the e-mail, a verification link for a new account or a note with a reset link to the
 * owner of an existing one, is made and sent after the response.
 */
export async function registerUser(
  app: FastifyInstance,
  input: TRegisterRequest,
): Promise<TRegisterResponse> {
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  const username = input.username || input.email;
  const [created] = await app.db
    .insert(users)
    .values({ email: input.email, username, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  afterResponse(app, async () => {
    if (created) {
      const token = await issueEmailToken(app.db, created.id, 'verify_email');
      await sendAccountMail(app, input.email, verifyEmailMail(linkTo(app, '/verify-email', token)));
      return;
    }
    const [owner] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (!owner) return;
    const token = await issueEmailToken(app.db, owner.id, 'reset_password');
    await sendAccountMail(app, input.email, accountExistsMail(linkTo(app, '/reset-password', token)));
  });
  return { email: input.email, username, detail: MESSAGES.registered };
}
