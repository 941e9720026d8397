import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { isFinalStatus } from '@cairn/contracts/message-rules';
import WebSocket from 'ws';

/**
 * Answers followed from outside a server process, across its restarts, as an owner's browser tab
 * would (the restart tests and `bench/drain`): asked over HTTP, watched through `/api/ws` (which
 * reconnects, to whichever process `baseOf()` names now, and catches up over HTTP when it does).
 */
export interface AskedAnswer {
  chatroom: string;
  uuid: string;
  sentAt: number;
  /** When its final message (complete, stopped, failed) was first seen. */
  finishedAt?: number;
  final?: TMessage;
}

async function call<T>(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An application that answers through an OpenAI-compatible server at `modelUrl` (model `slow-chat`). */
export async function providerApplication(base: string, token: string, modelUrl: string): Promise<string> {
  const app = await call<{ uuid: string }>(base, token, 'POST', '/api/applications/', { name: 'Restarts' });
  const provider = await call<{ uuid: string }>(base, token, 'POST', '/api/model-providers/', {
    kind: 'openai_compatible',
    name: 'Slow',
    base_url: modelUrl,
  });
  const model = await call<{ uuid: string }>(
    base,
    token,
    'POST',
    `/api/model-providers/${provider.uuid}/models/`,
    { name: 'slow-chat', model_type: 'text' },
  );
  await call(base, token, 'PATCH', `/api/applications/${app.uuid}/`, {
    llm_models: [model.uuid, 'builtin-embedding'],
    strictness: 'relaxed',
  });
  return app.uuid;
}

/** A question in a new chatroom, as a visitor starting a conversation. */
export async function ask(
  base: string,
  user: { token: string; sender: string },
  app: string,
  question: string,
): Promise<AskedAnswer> {
  const sentAt = Date.now();
  const res = await call<{ chatroom: { uuid: string }; answer: { uuid: string } }>(
    base,
    user.token,
    'POST',
    `/api/applications/${app}/chatrooms/send-message/`,
    {
      chatroom_identifier: 'new_chat',
      message: question,
      sender_identifier: user.sender,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  );
  return { chatroom: res.chatroom.uuid, uuid: res.answer.uuid, sentAt };
}

/**
 * Follows `answers` to their final message through every restart; `closeCodes` are the socket's.
 * Open it before asking (and push each answer asked), so no event of an answer is missed.
 */
export function watchAnswers(baseOf: () => string, token: string, app: string, answers: AskedAnswer[]) {
  const byUuidOf = (uuid: string) => answers.find((a) => a.uuid === uuid);
  /** Events of answers not yet pushed (the event can beat the send's own response). */
  const early: TMessage[] = [];
  const closeCodes: number[] = [];
  /** Every run each answer was seen streaming (deltas) or restarted in (updated events). */
  const runsSeen = new Map<string, Set<number>>();
  let socket: WebSocket | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const finish = (m: TMessage) => {
    if (!isFinalStatus(m.status)) return;
    const a = byUuidOf(m.uuid);
    if (!a) {
      early.push(m);
      return;
    }
    if (a.final) return;
    a.final = m;
    a.finishedAt = Date.now();
  };
  const seeRun = (uuid: string, run: number) => {
    const set = runsSeen.get(uuid) ?? new Set<number>();
    set.add(run);
    runsSeen.set(uuid, set);
  };
  let catchingUp: Promise<void> | null = null;
  /** Reads the answers not yet seen final: what a tab does when its socket is back. One at a time. */
  function catchUp(): Promise<void> {
    catchingUp ??= readUnfinished().finally(() => {
      catchingUp = null;
    });
    return catchingUp;
  }
  async function readUnfinished() {
    for (const a of answers.filter((x) => !x.final)) {
      const room = await call<{ messages: TMessage[] }>(
        baseOf(),
        token,
        'GET',
        `/api/applications/${app}/chatrooms/${a.chatroom}/messages/`,
      ).catch(() => null);
      const m = room?.messages.find((x) => x.uuid === a.uuid);
      if (m) finish(m);
    }
  }
  function open() {
    if (stopped) return;
    const ws = new WebSocket(`${baseOf().replace('http', 'ws')}/api/ws`, {
      headers: { authorization: `Token ${token}` },
    });
    socket = ws;
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { event: string; data: TMessageEvent };
      if (frame.event === 'ready') void catchUp();
      if (frame.event !== 'message') return;
      const e = frame.data;
      if (e.kind === 'delta') seeRun(e.message_uuid, e.run);
      if (e.kind === 'updated') {
        seeRun(e.message.uuid, e.message.run);
        finish(e.message);
      }
    });
    ws.on('error', () => {});
    ws.on('close', (code) => {
      closeCodes.push(code);
      if (!stopped) retry = setTimeout(open, 200);
    });
  }
  open();
  // A missed event (a reconnect between two polls) is found by this slow poll.
  const poll = setInterval(() => void catchUp(), 2000);

  return {
    closeCodes,
    runsSeen,
    /** Resolves once every answer is final; rejects after `timeoutMs`. */
    async allFinal(timeoutMs: number) {
      for (const m of early.splice(0)) finish(m);
      const deadline = Date.now() + timeoutMs;
      while (answers.some((a) => !a.final)) {
        if (Date.now() > deadline) {
          throw new Error(`${answers.filter((a) => !a.final).length} answers not final in time`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      socket?.close();
    },
  };
}
