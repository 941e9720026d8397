import { senderIdentifier, type TUser } from '@cairn/contracts/accounts';
import type { users } from '@cairn/db/schema';

export function serializeUser(user: typeof users.$inferSelect): TUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
    sender_identifier: senderIdentifier(user.id),
  };
}
