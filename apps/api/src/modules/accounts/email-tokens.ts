import type { Db } from '@cairn/db/client';
import { emailTokens } from '@cairn/db/schema';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, newLinkToken } from '../../lib/tokens.ts';

type Purpose = (typeof emailTokens.$inferInsert)['purpose'];

export const EMAIL_TOKEN_TTL_SECONDS: Record<Purpose, number> = {
  verify_email: 24 * 3600,
  reset_password: 3600,
  change_email: 24 * 3600,
};

/**
 * Issues a single-use token for an e-mail link; only its hash is stored. A given `token` (made from
 * an account-mail job's nonce) is stored once however often the job runs.
 */
export async function issueEmailToken(
  db: Db,
  userId: number,
  purpose: Purpose,
  options: { newEmail?: string; token?: string } = {},
): Promise<string> {
  const token = options.token ?? newLinkToken();
  await db
    .insert(emailTokens)
    .values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      newEmail: options.newEmail,
      expiresAt: sql`now() + make_interval(secs => ${EMAIL_TOKEN_TTL_SECONDS[purpose]})`,
    })
    .onConflictDoNothing({ target: emailTokens.tokenHash });
  return token;
}

/**
 * Marks the token used and returns its user id, atomically: two concurrent uses cannot both win.
 * An empty, unknown, used or expired token is a 400 with a detail saying which.
 */
export async function consumeEmailToken(db: Db, token: string, purpose: Purpose): Promise<number> {
  const invalid = new AppError('invalid_token', 'This link is invalid. Ask for a new one.');
  if (!token.trim()) throw invalid;
  const tokenHash = hashToken(token.trim());
  const [used] = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.tokenHash, tokenHash),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: emailTokens.userId });
  if (used) return used.userId;
  const [row] = await db
    .select({ usedAt: emailTokens.usedAt })
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)));
  if (!row) throw invalid;
  if (row.usedAt)
    throw new AppError('invalid_token', 'This link has already been used. Ask for a new one if you need it.');
  throw new AppError('invalid_token', 'This link has expired. Ask for a new one.');
}

/** Makes the user's unused links of these kinds unusable (a password change, a newer request). */
export async function voidEmailTokens(db: Db, userId: number, purposes: Purpose[]): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(emailTokens.userId, userId), inArray(emailTokens.purpose, purposes), isNull(emailTokens.usedAt)),
    );
}
