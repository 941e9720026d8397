import { users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeUser } from './serialize-user.ts';

export async function updateMe(
  app: Ctx,
  userId: number,
  input: {
    first_name?: string | undefined;
    last_name?: string | undefined;
    display_name?: string | undefined;
  },
) {
  const [user] = await app.db
    .update(users)
    .set({
      ...(input.first_name !== undefined && { firstName: input.first_name }),
      ...(input.last_name !== undefined && { lastName: input.last_name }),
      ...(input.display_name !== undefined && { displayName: input.display_name }),
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId))
    .returning();
  return serializeUser(user!);
}
