/**
 * The CPU and time of storing one message (decision 112), in process on PGlite: `postMessage` for
 * an owner's message to the end user of an existing chatroom (no answer is started), its durable
 * events delivered as in the product (analytics, webhooks, notifications). Five rounds of `--posts`
 * messages each; the first two warm up (statements prepared, JIT). Prints µs per message, wall and
 * this process's CPU.
 *
 *   npx tsx bench/chat/post-message.ts [--posts 1000]
 */
import { applications, chatrooms } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { postMessage } from '../../apps/api/src/modules/chatrooms/post-message.ts';
import setUpTestDatabases from '../../apps/api/src/testing/global-setup.ts';
import { startTestApp } from '../../apps/api/src/testing/test-app.ts';
import { argValue } from '../lib.ts';

const POSTS = Number(argValue('--posts') ?? 1000);

// The tests' app on a fresh copy of the migrated template, as a test file gets it.
const dropTemplate = await setUpTestDatabases();
const t = await startTestApp();
const owner = await t.signUp();
const created = await t.call('POST', '/api/applications/', { token: owner.token, json: { name: 'Bench' } });
const first = await t.call('POST', `/api/applications/${created.body.uuid}/chatrooms/send-message/`, {
  token: owner.token,
  json: {
    chatroom_identifier: 'new_chat',
    message: 'The first message',
    sender_identifier: `reg_${owner.user.id}`,
    send_to_user: true,
  },
});
if (first.status !== 201) throw new Error(`send-message: ${first.status}`);
const [application] = await t.app.db
  .select()
  .from(applications)
  .where(eq(applications.uuid, created.body.uuid));
const [chatroom] = await t.app.db
  .select()
  .from(chatrooms)
  .where(eq(chatrooms.uuid, first.body.chatroom.uuid));

for (let round = 0; round < 5; round++) {
  await t.app.events.settled();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < POSTS; i++) {
    await postMessage(t.app, {
      application: application!,
      chatroom: chatroom!,
      source: 'web',
      senderIdentifier: `reg_${owner.user.id}`,
      message: `Message ${i} of round ${round}`,
      metadata: {},
      sendToUser: true,
    });
  }
  await t.app.events.settled();
  const wall = ((performance.now() - started) / POSTS) * 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `round ${round}${round < 2 ? ' (warm-up)' : ''}: ${wall.toFixed(0)} µs wall, ${((used.user + used.system) / POSTS).toFixed(0)} µs CPU per message`,
  );
}
await t.close();
await dropTemplate();
