import { MESSAGES, type TRegisterRequest } from '@cairn/contracts/accounts';
import { users } from '@cairn/db/schema';
import type { FastifyInstance } from 'fastify';
import { fieldError } from '../../lib/app-error.ts';
import { verifyEmailMail } from '../../mail/templates.ts';
import { issueEmailToken } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { linkTo, sendAccountMail } from './send-account-mail.ts';

export async function registerUser(app: FastifyInstance, input: TRegisterRequest) {
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  const created = await app.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, username: input.username || input.email, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) throw fieldError('email', MESSAGES.emailTaken);
    const token = await issueEmailToken(tx, user.id, 'verify_email');
    return { user, token };
  });
  await sendAccountMail(
    app,
    created.user.email,
    verifyEmailMail(linkTo(app, '/verify-email', created.token)),
  );
  return { id: created.user.id, email: created.user.email, username: created.user.username };
}
