import {
  NEW_CHAT_ID,
  senderIdentifierOf,
  type TSendMessageResponse,
  type ZSendMessageRequest,
} from '@cairn/contracts/chat';
import type { z } from 'zod';
import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { displayNameOf } from '../accounts/serialize-user.ts';
import { findChatroom } from './find-chatroom.ts';
import { postMessage } from './post-message.ts';

/**
 * The owner's own message from the web app or the owner API (`send-message`). A message for the
 * end user (`send_to_user`) carries the owner's display name, which a widget visitor sees.
 */
export async function sendMessage(
  app: Ctx,
  owner: AuthUser,
  appUuid: string,
  input: z.output<typeof ZSendMessageRequest>,
): Promise<TSendMessageResponse> {
  const ownerId = owner.id;
  if (input.sender_identifier !== senderIdentifierOf(ownerId)) {
    throw fieldError('sender_identifier', 'Must be your own sender identifier.');
  }
  const found =
    input.chatroom_identifier === NEW_CHAT_ID
      ? { application: await findApplication(app.db, ownerId, appUuid), chatroom: undefined }
      : await findChatroom(app.db, ownerId, appUuid, input.chatroom_identifier);
  if (found.chatroom?.source === 'widget' && !input.send_to_user) {
    throw fieldError(
      'send_to_user',
      "In a visitor's conversation, messages go to the visitor (send_to_user: true).",
    );
  }
  return postMessage(app, {
    ...found,
    source: 'web',
    senderIdentifier: input.sender_identifier,
    message: input.message,
    metadata: input.send_to_user ? { ...input.metadata, sender_name: displayNameOf(owner) } : input.metadata,
    sendToUser: input.send_to_user,
  });
}
