import type { TSession } from '@cairn/contracts/account-settings';
import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { authTokens } from '@cairn/db/schema';
import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { sessionEnded } from '../../lib/session-ended.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { describeDevice } from './device.ts';

export type SessionLifetime = Config['sessionLifetime'];

/** Who signs in: the address and user agent of the request. */
export interface SessionClient {
  ip: string;
  userAgent: string | undefined;
}

/** Sweeps a user's ended sessions at sign-in: the SQL twin of `sessionEnded`. */
const sweepEnded = preparedPerDb((db) =>
  db
    .delete(authTokens)
    .where(
      and(
        eq(authTokens.userId, sql.placeholder('userId')),
        or(
          sql`${authTokens.lastUsedAt} < now() - make_interval(secs => ${sql.placeholder('idleSeconds')})`,
          sql`${authTokens.createdAt} < now() - make_interval(secs => ${sql.placeholder('maxSeconds')})`,
        ),
      ),
    )
    .prepare('sweep_ended_sessions'),
);
const sweepEndedSessions = (db: Db, userId: number, lifetime: SessionLifetime) =>
  sweepEnded(db).execute({ userId, idleSeconds: lifetime.idleMs / 1000, maxSeconds: lifetime.maxMs / 1000 });

// The account page asks for them.
const sessionsOf = preparedPerDb((db) =>
  db
    .select()
    .from(authTokens)
    .where(eq(authTokens.userId, sql.placeholder('userId')))
    .orderBy(desc(authTokens.lastUsedAt), desc(authTokens.id))
    .prepare('user_sessions'),
);

/** Starts a session; returns its token (only the hash is stored). Ended sessions of the user go. */
export async function startSession(
  { db }: Pick<Ctx, 'db'>,
  userId: number,
  client: SessionClient,
  lifetime: SessionLifetime,
): Promise<string> {
  const token = newToken();
  await sweepEndedSessions(db, userId, lifetime);
  await db.insert(authTokens).values({
    userId,
    tokenHash: hashToken(token),
    device: describeDevice(client.userAgent),
    ipAddress: client.ip,
  });
  return token;
}

/**
 * The user's live sessions, most recently used first; `currentHash` marks the caller's own. Ended
 * ones are left out here and deleted at the next sign-in or use: one statement for the page.
 */
export async function listSessions(
  { db }: Pick<Ctx, 'db'>,
  userId: number,
  currentHash: string,
  lifetime: SessionLifetime,
): Promise<TSession[]> {
  const rows = await sessionsOf(db).execute({ userId });
  const now = Date.now();
  return rows
    .filter((row) => !sessionEnded(row, lifetime, now))
    .map((row) => ({
      id: row.id,
      device: row.device || 'Unknown device',
      address: row.ipAddress,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt.toISOString(),
      expires_at: new Date(
        Math.min(row.lastUsedAt.getTime() + lifetime.idleMs, row.createdAt.getTime() + lifetime.maxMs),
      ).toISOString(),
      current: row.tokenHash === currentHash,
    }));
}

/** Signs one session of the user out (someone else's is a 404); says whether it was the caller's. */
export async function endSession(
  { db }: Pick<Ctx, 'db'>,
  userId: number,
  sessionId: number,
  currentHash: string,
): Promise<boolean> {
  const [gone] = await db
    .delete(authTokens)
    .where(and(eq(authTokens.id, sessionId), eq(authTokens.userId, userId)))
    .returning({ tokenHash: authTokens.tokenHash });
  if (!gone) throw notFound('Session not found.');
  return gone.tokenHash === currentHash;
}

/** Signs out every session of the user but the caller's. */
export async function endOtherSessions(db: Db, userId: number, currentHash: string): Promise<number> {
  const gone = await db
    .delete(authTokens)
    .where(and(eq(authTokens.userId, userId), ne(authTokens.tokenHash, currentHash)))
    .returning({ id: authTokens.id });
  return gone.length;
}
