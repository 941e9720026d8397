import { MESSAGES, type TRegisterRequest, type TRegisterResponse } from '@cairn/contracts/accounts';
import { users } from '@cairn/db/schema';
import type { Ctx } from '../../lib/ctx.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { queueAccountMail } from './send-account-mail.ts';

/**
 * Answers the same, in the same time, whether the address is new or already has an account (no
 * enumeration, decision 057): the request does the same work either way (hash, one insert that may
 * do nothing, one queued e-mail): a verification link for a new account, or a note with a reset link
 * to the owner of an existing one, made when the e-mail is sent.
 */
export async function registerUser(app: Ctx, input: TRegisterRequest): Promise<TRegisterResponse> {
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  const username = input.username || input.email;
  const [created] = await app.db
    .insert(users)
    .values({ email: input.email, username, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  await queueAccountMail(app, { kind: created ? 'verify_email' : 'account_exists', email: input.email });
  return { email: input.email, username, detail: MESSAGES.registered };
}
