import { z } from 'zod';
import { ZUser } from './accounts.ts';
import { ZApplicationList } from './applications.ts';
import { ZAttentionCount } from './attention.ts';
import { ZChatroom } from './chat.ts';

/** GET /api/navigation/?application=<uuid>: the application to select, else the first one. */
export const ZNavigationQuery = z.object({
  application: z.uuid({ error: 'Not a valid id' }).optional(),
});

/** The sidebar's chatrooms at most: the latest; the rest are in the conversation log (decision 105). */
export const SIDEBAR_CHATROOMS = 30;

/**
 * What every signed-in page shows around its content (specification §2's navigation step), in one
 * call: the user, their applications, the selected one's chatrooms and its attention badge.
 * `chatrooms` and `attention` are null when they could not be read (the page still renders).
 */
export const ZNavigation = z.object({
  user: ZUser,
  applications: ZApplicationList,
  /** The uuid of the application matching `application`, else the first one; null without any. */
  selected: z.uuid().nullable(),
  /** The selected application's latest `SIDEBAR_CHATROOMS` sidebar chatrooms (as GET …/chatrooms/). */
  chatrooms: z.array(ZChatroom).nullable(),
  /** Whether it has more sidebar chatrooms than `chatrooms` holds. */
  more_chatrooms: z.boolean(),
  attention: ZAttentionCount.nullable(),
});
export type TNavigation = z.infer<typeof ZNavigation>;
