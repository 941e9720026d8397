import type { Config } from '../config.ts';

/** A session ends when unused for `idleMs`, and `maxMs` after sign-in whatever its use. */
export function sessionEnded(
  session: { createdAt: Date; lastUsedAt: Date },
  lifetime: Config['sessionLifetime'],
  now = Date.now(),
): boolean {
  return (
    now - session.lastUsedAt.getTime() > lifetime.idleMs || now - session.createdAt.getTime() > lifetime.maxMs
  );
}
