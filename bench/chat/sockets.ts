/**
 * 200 concurrent chat sockets, no message lost: 50 owners with 4 open tabs each, every owner
 * holding a conversation at the same time. Every tab must see every message of its owner
 * ('created'), every answer rebuilt from its deltas by offset equal to the stored answer, and each
 * answer's final 'updated' — checked against `GET …/messages/`, the server's truth.
 *
 *   npx tsx bench/chat/sockets.ts [--database-url postgres://…] [--owners 50] [--tabs 4] [--messages 5]
 */
import type { TChatroomMessages, TMessageEvent } from '@cairn/contracts/chat';
import WebSocket from 'ws';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { call, flag, seedUser, startBench } from './setup.ts';

const OWNERS = Number(flag('--owners') ?? 50);
const TABS = Number(flag('--tabs') ?? 4);
const MESSAGES = Number(flag('--messages') ?? 5);
const DOC =
  '# Opening hours\n\nThe harbour office opens at eight and closes at six on weekdays. On Saturdays it opens at nine.\n\n' +
  '# Moorings\n\nVisitor moorings are on the east wall. Book a mooring at the harbour office before arrival.';
const QUESTIONS = [
  'When does the harbour office open?',
  'Where are visitor moorings?',
  'How do I book a mooring?',
];

const bench = await startBench();

interface Tab {
  socket: WebSocket;
  events: TMessageEvent[];
}

async function openTab(token: string): Promise<Tab> {
  const socket = new WebSocket(`${bench.url.replace('http', 'ws')}/api/ws`, {
    headers: { authorization: `Token ${token}` },
  });
  const tab: Tab = { socket, events: [] };
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as { event: string; data: TMessageEvent };
    if (frame.event === 'message') tab.events.push(frame.data);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('error', reject);
  });
  return tab;
}

console.log(
  `database=${bench.database.kind} owners=${OWNERS} tabs/owner=${TABS} sockets=${OWNERS * TABS} messages/owner=${MESSAGES}`,
);
const owners = [];
for (let i = 0; i < OWNERS; i++) {
  const user = await seedUser(bench.database, `sockets-${i}`);
  const app = await call(bench, user.token, 'POST', '/api/applications/', { name: `Harbour ${i}` });
  const { rows } = await bench.database.query<{ id: number }>(
    `INSERT INTO knowledge_items (application_id, type, title, status)
     SELECT id, 'text', 'Harbour guide', 'ready' FROM applications WHERE uuid = $1 RETURNING id, application_id`,
    [app.uuid],
  );
  const item = rows[0] as unknown as { id: number; application_id: number };
  await indexItem(bench.app, {
    applicationId: item.application_id,
    itemId: item.id,
    document: { title: 'Harbour guide', language: 'en', sections: [{ text: DOC }] },
    llmModels: [],
  });
  const tabs = await Promise.all(Array.from({ length: TABS }, () => openTab(user.token)));
  owners.push({ user, app: app.uuid as string, tabs, room: 'new_chat' });
}

const started = performance.now();
await Promise.all(
  owners.map(async (o) => {
    for (let m = 0; m < MESSAGES; m++) {
      const sent = await call(
        bench,
        o.user.token,
        'POST',
        `/api/applications/${o.app}/chatrooms/send-message/`,
        {
          chatroom_identifier: o.room,
          message: QUESTIONS[m % QUESTIONS.length],
          sender_identifier: `reg_${o.user.id}`,
          metadata: { source: 'web' },
          send_to_user: false,
        },
      );
      o.room = sent.chatroom.uuid;
      // Wait until the first tab has the final answer before the next question.
      const answer = sent.answer.uuid as string;
      for (let i = 0; i < 3000; i++) {
        if (
          o.tabs[0]!.events.some(
            (e) =>
              e.kind === 'updated' &&
              e.message.uuid === answer &&
              e.message.status !== 'pending' &&
              e.message.status !== 'streaming',
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }),
);
const elapsed = performance.now() - started;
await new Promise((r) => setTimeout(r, 500));

let expectedMessages = 0;
let lostCreated = 0;
let lostFinal = 0;
let wrongStream = 0;
let events = 0;
let deltas = 0;
let notComplete = 0;
for (const o of owners) {
  const truth = await call<TChatroomMessages>(
    bench,
    o.user.token,
    'GET',
    `/api/applications/${o.app}/chatrooms/${o.room}/messages/`,
  );
  for (const m of truth.messages)
    if (m.sender_identifier === 'assistant' && m.status !== 'complete') notComplete++;
  for (const tab of o.tabs) {
    events += tab.events.length;
    for (const m of truth.messages) {
      expectedMessages++;
      if (!tab.events.some((e) => e.kind === 'created' && e.message.uuid === m.uuid)) lostCreated++;
      if (m.sender_identifier !== 'assistant') continue;
      if (
        !tab.events.some(
          (e) => e.kind === 'updated' && e.message.uuid === m.uuid && e.message.message === m.message,
        )
      )
        lostFinal++;
      let text = '';
      for (const e of tab.events) {
        if (e.kind === 'delta' && e.message_uuid === m.uuid) {
          deltas++;
          if (e.offset === text.length) text += e.delta;
        }
      }
      if (text !== m.message) wrongStream++;
    }
  }
}
console.log(
  `${owners.length * MESSAGES} questions answered in ${(elapsed / 1000).toFixed(1)} s; ${events} events on ${OWNERS * TABS} sockets (${deltas} deltas)`,
);
console.log(
  `per tab, messages expected: ${expectedMessages}; missing 'created': ${lostCreated}; missing final answer: ${lostFinal}; ` +
    `answers not rebuilt exactly from deltas: ${wrongStream}; answers not complete: ${notComplete}`,
);
console.log(lostCreated + lostFinal + wrongStream === 0 ? 'no message lost' : 'MESSAGES LOST');
for (const o of owners) for (const t of o.tabs) t.socket.close();
await bench.close();
