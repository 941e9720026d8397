import { MESSAGES, type TLoginRequest, type TLoginResponse } from '@cairn/contracts/accounts';
import { authTokens, users } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { type SessionClient, startSession } from './account-sessions.ts';
import { verifyPassword } from './passwords.ts';
import { serializeUser } from './serialize-user.ts';

export async function loginUser(
  app: Ctx,
  input: TLoginRequest,
  client: SessionClient,
): Promise<TLoginResponse> {
  const [user] = await app.db.select().from(users).where(eq(users.email, input.email));
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new AppError('invalid_credentials', MESSAGES.invalidCredentials);
  if (!user.emailVerifiedAt) throw new AppError('email_not_verified', MESSAGES.emailNotVerified);
  const token = await startSession(app, user.id, client, app.config.sessionLifetime);
  return { token, user: serializeUser(user) };
}

export async function logoutUser(app: Ctx, tokenHash: string): Promise<void> {
  await app.db.delete(authTokens).where(eq(authTokens.tokenHash, tokenHash));
}
