import type { THandledBy, TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { isInProgress } from '@cairn/contracts/message-rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { normalizeError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { NEW_CHAT_ID } from '../../lib/utils';
import { chatApi } from './chat-api';
import { applyEvent, type ChatMessage, type ChatroomState, mergeMessages } from './chat-state';
import { useChatSocket } from './use-chat-socket';

export const SEND_FAILED = 'Failed to send message';
export const NO_CHATROOM = 'No chatroom selected';
const BUFFER_MAX = 2000;

interface Options {
  appId: string | undefined;
  chatroomId: string | undefined;
  initial: TMessage[];
  senderIdentifier: string;
  /** The chatroom as the sidebar's list has it (source, who handles it); null for a draft. */
  room?: ChatroomState | null;
  /** The owner's display name, put on an optimistic reply to a widget visitor. */
  senderName?: string;
}

/**
 * The conversation as the view shows it. Sending appends the message at once, then posts it; a
 * failed send keeps the message with its error (and a retry). Realtime events keep every tab in
 * step; deltas apply by offset, and a reconnect or a detected gap refetches and merges by uuid,
 * so nothing is lost or shown twice. `new_chat` is a local draft until its first send.
 */
export function useChat({
  appId,
  chatroomId,
  initial,
  senderIdentifier,
  room: listed = null,
  senderName,
}: Options) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [messages, setMessages] = useState<ChatMessage[]>(initial);
  const messagesRef = useRef<ChatMessage[]>(initial);
  const roomRef = useRef(chatroomId);
  const shownRoom = useRef(chatroomId);
  const adopting = useRef<string | null>(null);
  /** Events of chatrooms not shown (yet): a new chat's answer may stream before its POST returns. */
  const buffer = useRef<TMessageEvent[]>([]);

  // Who handles the chatroom: the list's word, replaced at once by `chatroom` events and by answers
  // to our own calls (a send to a visitor takes the chatroom over).
  const [room, setRoom] = useState<ChatroomState | null>(listed);
  const listedKey = listed ? `${listed.uuid} ${listed.handled_by} ${listed.waiting_since}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for what the list says
  useEffect(() => setRoom(listed), [listedKey]);
  const widgetRoom = room?.source === 'widget';

  const commit = useCallback((next: ChatMessage[]) => {
    messagesRef.current = next;
    setMessages(next);
  }, []);

  // New loader data: another chatroom (start over), or the same one revalidated (merge).
  useEffect(() => {
    const same = shownRoom.current === chatroomId || adopting.current === chatroomId;
    adopting.current = null;
    shownRoom.current = chatroomId;
    roomRef.current = chatroomId;
    commit(same ? mergeMessages(messagesRef.current, initial) : initial);
  }, [chatroomId, initial, commit]);

  const catchUp = useCallback(() => {
    const room = roomRef.current;
    if (!appId || !room || room === NEW_CHAT_ID) return;
    chatApi
      .messages(appId, room)
      .then((answer) => {
        if (roomRef.current === room) commit(mergeMessages(messagesRef.current, answer.messages));
      })
      .catch(() => {});
  }, [appId, commit]);

  useChatSocket({
    onReady: catchUp,
    onEvent(event) {
      if (event.application_uuid !== appId) return;
      if (event.kind === 'chatroom' || event.kind === 'chatroom_deleted') {
        if (event.kind === 'chatroom' && event.chatroom_uuid === roomRef.current) setRoom(event.chatroom);
        revalidator.revalidate();
        if (event.kind === 'chatroom_deleted' && event.chatroom_uuid === roomRef.current) {
          toast('This chat was deleted.');
          navigate(`/applications/${appId}/messages/${NEW_CHAT_ID}`);
        }
        return;
      }
      if (event.chatroom_uuid !== roomRef.current) {
        buffer.current.push(event);
        if (buffer.current.length > BUFFER_MAX) buffer.current.splice(0, buffer.current.length - BUFFER_MAX);
        return;
      }
      const result = applyEvent(messagesRef.current, event);
      commit(result.messages);
      if (result.gap) catchUp();
    },
  });

  const send = useCallback(
    async (text: string, retryOf?: string): Promise<boolean> => {
      if (!appId || !roomRef.current) {
        toast.error(NO_CHATROOM);
        return false;
      }
      const now = new Date().toISOString();
      const local: ChatMessage = {
        id: Number.MAX_SAFE_INTEGER,
        uuid: `local-${Math.random().toString(36).slice(2)}`,
        sender_identifier: senderIdentifier,
        message: text,
        metadata: { source: 'web', ...(widgetRoom && senderName ? { sender_name: senderName } : {}) },
        status: 'complete',
        run: 0,
        feedback: null,
        created_at: now,
        updated_at: now,
        local: { state: 'sending' },
      };
      commit([...messagesRef.current.filter((m) => m.uuid !== retryOf), local]);
      try {
        const sent = await chatApi.send(appId, {
          chatroom_identifier: roomRef.current,
          message: text,
          sender_identifier: senderIdentifier,
          metadata: { source: 'web' },
          // In a visitor's conversation the owner writes to the visitor (and so takes it over).
          send_to_user: widgetRoom,
        });
        if (widgetRoom) setRoom(sent.chatroom);
        const room = sent.chatroom.uuid;
        const wasDraft = roomRef.current === NEW_CHAT_ID;
        roomRef.current = room;
        let next = messagesRef.current.filter((m) => m.uuid !== local.uuid);
        const base = { application_uuid: appId, chatroom_uuid: room };
        for (const m of [sent.message, sent.answer]) {
          if (m) next = applyEvent(next, { kind: 'created', ...base, message: m }).messages;
        }
        let gap = false;
        for (const event of buffer.current.filter((e) => e.chatroom_uuid === room)) {
          const result = applyEvent(next, event);
          next = result.messages;
          gap ||= result.gap;
        }
        buffer.current = buffer.current.filter((e) => e.chatroom_uuid !== room);
        commit(next);
        if (gap) catchUp();
        if (wasDraft) {
          // The draft became a real chatroom: the URL follows, the conversation stays on screen.
          adopting.current = room;
          navigate(`/applications/${appId}/messages/${room}`, { replace: true });
        }
        return true;
      } catch (error) {
        const failure = normalizeError(error);
        commit(
          messagesRef.current.map((m) =>
            m.uuid === local.uuid ? { ...m, local: { state: 'failed', error: failure.message } } : m,
          ),
        );
        toast.error(SEND_FAILED, { description: failure.message });
        return false;
      }
    },
    [appId, senderIdentifier, senderName, widgetRoom, commit, catchUp, navigate],
  );

  const [handling, setHandling] = useState(false);
  /** Take over (`human`) or hand back to the assistant; either ends a visitor's wait. */
  const handle = useCallback(
    async (handledBy: THandledBy) => {
      const current = roomRef.current;
      if (!appId || !current || current === NEW_CHAT_ID) return;
      setHandling(true);
      try {
        const updated = await chatApi.handle(appId, current, handledBy);
        if (roomRef.current === current) setRoom(updated);
      } catch (error) {
        toast.error(normalizeError(error).message);
      } finally {
        setHandling(false);
      }
    },
    [appId],
  );

  const act = useCallback(
    async (call: (app: string, room: string) => Promise<TMessage>) => {
      const room = roomRef.current;
      if (!appId || !room || room === NEW_CHAT_ID) return;
      try {
        const message = await call(appId, room);
        commit(
          applyEvent(messagesRef.current, {
            kind: 'updated',
            application_uuid: appId,
            chatroom_uuid: room,
            message,
          }).messages,
        );
      } catch (error) {
        toast.error(normalizeError(error).message);
      }
    },
    [appId, commit],
  );

  return {
    messages,
    room,
    handle,
    handling,
    busy: messages.some((m) => !m.local && isInProgress(m)),
    send,
    retry: (message: ChatMessage) => send(message.message, message.uuid),
    stop: (uuid: string) => act((app, room) => chatApi.stop(app, room, uuid)),
    regenerate: (uuid: string) => act((app, room) => chatApi.regenerate(app, room, uuid)),
    rate: (uuid: string, feedback: 'up' | 'down' | null) =>
      act((app, room) => chatApi.feedback(app, room, uuid, feedback)),
  };
}
