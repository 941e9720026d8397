import { senderIdentifier, type TUser } from '@cairn/contracts/accounts';
import type { users } from '@cairn/db/schema';

/**
 * How the owner is named to others (a widget visitor reading a human reply): the display name they
 * chose, else their first name, else their last name, else a neutral "Support" (the username is
 * often the e-mail address, which visitors must not see).
 */
export const displayNameOf = (user: typeof users.$inferSelect) =>
  user.displayName || user.firstName || user.lastName || 'Support';

export function serializeUser(user: typeof users.$inferSelect): TUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
    display_name: user.displayName,
    public_name: displayNameOf(user),
    sender_identifier: senderIdentifier(user.id),
  };
}
