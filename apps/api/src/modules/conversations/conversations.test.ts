import type { TChatroomSource } from '@cairn/contracts/chat';
import type { TConversation, TConversationPage } from '@cairn/contracts/conversations';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
});
afterAll(() => t.close());

interface MessageSpec {
  sender: string;
  text: string;
  feedback?: 'up' | 'down';
  metadata?: Record<string, unknown>;
}
interface ConversationSpec {
  name: string;
  source?: TChatroomSource;
  createdAt: string;
  lastMessageAt?: string;
  handledBy?: 'assistant' | 'human';
  waitingSince?: string;
  messages: MessageSpec[];
}

/** An application of alice's, made through the API; answers its uuid and row id. */
async function newApplication(token = alice.token) {
  const created = await t.call('POST', '/api/applications/', { token, json: { name: 'Support' } });
  expect(created.status).toBe(201);
  const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
    created.body.uuid,
  ]);
  return { uuid: created.body.uuid as string, id: rows[0]!.id };
}

/** A conversation written straight into the database, at the times given. */
async function insertConversation(applicationId: number, spec: ConversationSpec): Promise<string> {
  const last = spec.lastMessageAt ?? spec.createdAt;
  const { rows } = await t.database.query<{ id: number; uuid: string }>(
    `INSERT INTO chatrooms (application_id, name, source, handled_by, waiting_since, created_at, updated_at, last_message_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING id, uuid`,
    [
      applicationId,
      spec.name,
      spec.source ?? 'api',
      spec.handledBy ?? 'assistant',
      spec.waitingSince ?? null,
      spec.createdAt,
      last,
    ],
  );
  for (const m of spec.messages) {
    await t.database.query(
      `INSERT INTO messages (chatroom_id, sender_identifier, message, feedback, metadata, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [rows[0]!.id, m.sender, m.text, m.feedback ?? null, JSON.stringify(m.metadata ?? {}), last],
    );
  }
  return rows[0]!.uuid;
}

const list = (appUuid: string, query = '', token = alice.token) =>
  t.call<TConversationPage>('GET', `/api/applications/${appUuid}/conversations/${query && `?${query}`}`, {
    token,
  });
const names = (results: TConversation[]) => results.map((r) => r.name);

const question = (text: string, sender = 'api_key1'): MessageSpec => ({ sender, text });
const answer = (text: string, extra: Partial<MessageSpec> = {}): MessageSpec => ({
  sender: 'assistant',
  text,
  ...extra,
});
const NOT_COVERED = { metadata: { not_covered: true } };

describe('the log and its filters', () => {
  let app: { uuid: string; id: number };

  beforeAll(async () => {
    app = await newApplication();
    // Alice's day is New York's: 03:00 UTC on 10 March is still 9 March there.
    const profile = await t.call('GET', '/api/notification-profile/', { token: alice.token });
    const saved = await t.call('PUT', '/api/notification-profile/', {
      token: alice.token,
      json: { ...profile.body, time_zone: 'America/New_York' },
    });
    expect(saved.status).toBe(200);

    await insertConversation(app.id, {
      name: 'shipping',
      source: 'widget',
      createdAt: '2026-03-01T12:00:00Z',
      lastMessageAt: '2026-03-05T12:00:00Z',
      messages: [
        question('Do you ship parcels to Canada?', 'visitor_11111111-1111-4111-8111-111111111111'),
        answer('Sorry, I have no information about that.', NOT_COVERED),
        question('And to Mexico?', 'visitor_11111111-1111-4111-8111-111111111111'),
        answer('Sorry, I have no information about that.', { ...NOT_COVERED, feedback: 'down' }),
      ],
    });
    await insertConversation(app.id, {
      name: 'hours',
      source: 'api',
      createdAt: '2026-03-10T03:00:00Z',
      messages: [question('When do you open?'), answer('The shop opens at nine.', { feedback: 'up' })],
    });
    await insertConversation(app.id, {
      name: 'owner test',
      source: 'web',
      createdAt: '2026-03-10T05:00:00Z',
      messages: [question('Where are the parcels?', `reg_${alice.user.id}`), answer('In the depot.')],
    });
    await insertConversation(app.id, {
      name: 'waiting',
      source: 'slack',
      createdAt: '2026-03-12T10:00:00Z',
      waitingSince: '2026-03-12T10:05:00Z',
      messages: [question('I want a person', 'slack_U1'), answer('Someone will reply soon.')],
    });
    await insertConversation(app.id, {
      name: 'taken over',
      source: 'telegram',
      createdAt: '2026-03-14T10:00:00Z',
      handledBy: 'human',
      messages: [
        question('Refund my order please', 'telegram_42'),
        { sender: `reg_${alice.user.id}`, text: 'Done, your refund is on its way.' },
      ],
    });
  });

  it('lists newest activity first with what each conversation holds', async () => {
    const res = await list(app.uuid);
    expect(res.status).toBe(200);
    expect(names(res.body.results)).toEqual(['taken over', 'waiting', 'owner test', 'hours', 'shipping']);
    expect(res.body.next_cursor).toBeNull();
    const shipping = res.body.results.at(-1)!;
    expect(shipping).toMatchObject({
      source: 'widget',
      handled_by: 'assistant',
      waiting_since: null,
      created_at: '2026-03-01T12:00:00.000Z',
      last_message_at: '2026-03-05T12:00:00.000Z',
      message_count: 4,
      rating_up: 0,
      rating_down: 1,
      not_covered_count: 2,
      visitor: 'visitor_11111111-1111-4111-8111-111111111111',
    });
    expect(res.body.results.find((r) => r.name === 'hours')).toMatchObject({
      rating_up: 1,
      visitor: 'api_key1',
    });
    // Only the owner wrote: no visitor.
    expect(res.body.results.find((r) => r.name === 'owner test')!.visitor).toBeNull();
    expect(res.body.results.find((r) => r.name === 'taken over')!.visitor).toBe('telegram_42');
  });

  it.each([
    ['source=widget', ['shipping']],
    ['source=slack&source=telegram', ['taken over', 'waiting']],
    ['rating=up', ['hours']],
    ['rating=down', ['shipping']],
    ['rating=none', ['taken over', 'waiting', 'owner test']],
    ['status=waiting', ['waiting']],
    ['status=human', ['taken over']],
    ['status=assistant', ['owner test', 'hours', 'shipping']],
    ['not_covered=true', ['shipping']],
    // Words of questions and answers, any case; web-search syntax.
    ['q=parcels', ['owner test', 'shipping']],
    ['q=REFUND', ['taken over']],
    ['q=opens', ['hours']],
    ['q=%22refund%20is%20on%22', ['taken over']],
    // A conversation matches when one of its messages does.
    ['q=parcels%20-canada', ['owner test']],
    ['q=nothinglikethis', []],
    // Punctuation only: no words, no search.
    ['q=%3F%3F', ['taken over', 'waiting', 'owner test', 'hours', 'shipping']],
    // Days in New York: "hours" started on 9 March there.
    ['from=2026-03-09&to=2026-03-09', ['hours']],
    ['from=2026-03-10', ['taken over', 'waiting', 'owner test']],
    ['to=2026-03-09', ['hours', 'shipping']],
    ['from=2026-03-15', []],
    // Combinations.
    ['source=api&source=web&q=parcels', ['owner test']],
    ['source=widget&rating=down&not_covered=true', ['shipping']],
    ['source=widget&rating=up', []],
    ['status=assistant&rating=none&from=2026-03-10', ['owner test']],
    ['q=sorry&not_covered=true&to=2026-03-02', ['shipping']],
  ])('filters by %s', async (query, expected) => {
    const res = await list(app.uuid, query);
    expect(res.status).toBe(200);
    expect(names(res.body.results)).toEqual(expected);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=ten',
    'limit=1.5',
    'source=fax',
    'source=web&source=fax',
    'from=2026-13-01',
    'from=yesterday',
    'to=2026-03-09T00:00:00Z',
    'rating=meh',
    'status=sleeping',
    'not_covered=false',
    `q=${'a'.repeat(201)}`,
    'q=a%00b',
    'cursor=!!!',
    `cursor=${Buffer.from('not a position').toString('base64url')}`,
    `cursor=${Buffer.from('1.99999999999').toString('base64url')}`,
    `cursor=${'A'.repeat(300)}`,
  ])('refuses %s with 400', async (query) => {
    const res = await list(app.uuid, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ detail: expect.any(String), code: 'invalid' });
  });

  it("answers 404 for another user's application and 401 without a token", async () => {
    expect((await list(app.uuid, '', bob.token)).status).toBe(404);
    const exported = await t.call('GET', `/api/applications/${app.uuid}/conversations/export/`, {
      token: bob.token,
    });
    expect(exported.status).toBe(404);
    const deleted = await t.call('DELETE', `/api/applications/${app.uuid}/conversations/?visitor=api_key1`, {
      token: bob.token,
    });
    expect(deleted.status).toBe(404);
    expect((await t.call('GET', `/api/applications/${app.uuid}/conversations/`)).status).toBe(401);
    // Nothing of alice's went.
    expect((await list(app.uuid)).body.results).toHaveLength(5);
  });
});

describe('keyset pages', () => {
  it('walks every conversation once, and a new conversation moves nothing under the cursor', async () => {
    const app = await newApplication();
    const base = Date.parse('2026-05-01T00:00:00Z');
    // Twelve conversations in pairs sharing their last activity (the id breaks the tie) …
    for (let i = 0; i < 12; i++) {
      const at = new Date(base + Math.floor(i / 2) * 1000).toISOString();
      await insertConversation(app.id, {
        name: `c${i}`,
        createdAt: at,
        messages: [question(`question ${i}`)],
      });
    }
    // … but for two a microsecond apart, which a cursor in milliseconds would lose.
    await t.database.query(
      `UPDATE chatrooms SET last_message_at = last_message_at + interval '1 microsecond'
       WHERE application_id = $1 AND name IN ('c4', 'c8')`,
      [app.id],
    );
    const first = await list(app.uuid, 'limit=5');
    expect(first.body.results).toHaveLength(5);
    expect(first.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // Meanwhile: a new conversation (it goes on top) and a new answer in one already shown.
    await insertConversation(app.id, { name: 'newest', createdAt: '2026-06-01T00:00:00Z', messages: [] });
    const second = await list(app.uuid, `limit=5&cursor=${first.body.next_cursor}`);
    const third = await list(app.uuid, `limit=5&cursor=${second.body.next_cursor}`);
    expect(third.body.next_cursor).toBeNull();
    const walked = names([...first.body.results, ...second.body.results, ...third.body.results]);
    expect(walked).toHaveLength(12);
    expect(new Set(walked).size).toBe(12);
    const all = await list(app.uuid, 'limit=100');
    expect(names(all.body.results)).toEqual(['newest', ...walked]);
    expect(walked.slice(0, 6)).toEqual(['c11', 'c10', 'c8', 'c9', 'c7', 'c6']);
  });

  it('lists a conversation made through the chat API, by the owner, with its count', async () => {
    const app = await newApplication();
    const sent = await t.call('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
      token: alice.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Is the museum open on Sundays?',
        sender_identifier: `reg_${alice.user.id}`,
        metadata: { source: 'web' },
        send_to_user: true,
      },
    });
    expect(sent.status).toBe(201);
    const res = await list(app.uuid, 'q=museum');
    expect(res.body.results).toEqual([
      expect.objectContaining({
        uuid: sent.body.chatroom.uuid,
        source: 'web',
        message_count: 1,
        visitor: null,
      }),
    ]);
  });
});

describe('export', () => {
  let app: { uuid: string; id: number };
  const visitor = 'visitor_22222222-2222-4222-8222-222222222222';

  beforeAll(async () => {
    app = await newApplication();
    await insertConversation(app.id, {
      name: 'older',
      source: 'widget',
      createdAt: '2026-04-01T10:00:00Z',
      messages: [
        question('=HYPERLINK("http://evil.example","click")', visitor),
        answer('We ship, at "cost", to:\nCanada and Mexico [1].', {
          feedback: 'up',
          metadata: {
            sources: [
              { index: 1, item_title: 'Shipping, rates' },
              { index: 2, item_title: 'FAQ' },
              { index: 3, item_title: 'Shipping, rates' },
            ],
          },
        }),
      ],
    });
    await insertConversation(app.id, {
      name: 'newer',
      source: 'api',
      createdAt: '2026-04-02T10:00:00Z',
      messages: [question('-1 plus 1? Ünïcödé ✓', 'api_k'), { sender: `reg_${alice.user.id}`, text: '@me' }],
    });
  });

  const download = (query: string, token = alice.token) =>
    fetch(`${t.url}/api/applications/${app.uuid}/conversations/export/?${query}`, {
      headers: { authorization: `Token ${token}` },
    });

  it('writes CSV with a BOM, RFC 4180 quoting and formula-looking cells neutralised', async () => {
    const res = await download('format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="conversations-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(new TextDecoder().decode(bytes.slice(3)));
    expect(rows[0]).toEqual([
      'conversation',
      'source',
      'created_at',
      'sender',
      'role',
      'text',
      'rating',
      'sources',
    ]);
    const { rows: rooms } = await t.database.query<{ uuid: string; name: string }>(
      'SELECT uuid, name FROM chatrooms WHERE application_id = $1',
      [app.id],
    );
    const uuidOf = (name: string) => rooms.find((r) => r.name === name)!.uuid;
    // The log's order (newest activity first), each conversation's messages oldest first.
    expect(rows.slice(1)).toEqual([
      [uuidOf('newer'), 'api', '2026-04-02T10:00:00.000Z', 'api_k', 'user', "'-1 plus 1? Ünïcödé ✓", '', ''],
      [uuidOf('newer'), 'api', '2026-04-02T10:00:00.000Z', `reg_${alice.user.id}`, 'owner', "'@me", '', ''],
      [
        uuidOf('older'),
        'widget',
        '2026-04-01T10:00:00.000Z',
        visitor,
        'user',
        `'=HYPERLINK("http://evil.example","click")`,
        '',
        '',
      ],
      [
        uuidOf('older'),
        'widget',
        '2026-04-01T10:00:00.000Z',
        'assistant',
        'assistant',
        'We ship, at "cost", to:\nCanada and Mexico [1].',
        'up',
        'Shipping, rates; FAQ',
      ],
    ]);
  });

  it('writes JSON lines with the same filters as the log', async () => {
    const res = await download('format=jsonl&source=widget&rating=up');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/\.jsonl"$/);
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      role: 'user',
      text: '=HYPERLINK("http://evil.example","click")',
      rating: null,
    });
    expect(lines[1]).toMatchObject({ role: 'assistant', rating: 'up', sources: ['Shipping, rates', 'FAQ'] });
    const none = await download('format=jsonl&q=nothinglikethis');
    expect(await none.text()).toBe('');
  });

  it('refuses a bad format or filter with 400', async () => {
    for (const query of ['format=xlsx', 'rating=meh', 'from=tomorrow']) {
      const res = await download(query);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid' });
    }
  });

  it('exports 13,000 messages in 600 conversations completely, across its batches', async () => {
    const big = await newApplication();
    // 21 or 22 messages a conversation: the first batch of 500 conversations holds more than one
    // query's 10,000 messages, and a second batch follows.
    await t.database.query(
      `WITH rooms AS (
         INSERT INTO chatrooms (application_id, name, source, last_message_at)
         SELECT $1, 'bulk ' || g, 'api', now() - g * interval '1 minute' FROM generate_series(1, 600) g
         RETURNING id),
       numbered AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM rooms)
       INSERT INTO messages (chatroom_id, sender_identifier, message, created_at)
       SELECT r.id, 'api_bulk', 'message ' || g, now() - interval '1 hour' + g * interval '1 millisecond'
       FROM generate_series(1, 13000) g JOIN numbered r ON r.i = g % 600 ORDER BY g`,
      [big.id],
    );
    const res = await fetch(`${t.url}/api/applications/${big.uuid}/conversations/export/?format=csv`, {
      headers: { authorization: `Token ${alice.token}` },
    });
    const rows: string[][] = parse((await res.text()).slice(1));
    expect(rows).toHaveLength(13001);
    expect(new Set(rows.slice(1).map((r) => r[5])).size).toBe(13000);
    // In the log's order (bulk 1 is the newest), each conversation's rows together and in order.
    const runs = rows.slice(1).filter((r, i, all) => i === 0 || all[i - 1]![0] !== r[0]);
    expect(runs).toHaveLength(600);
    const { rows: order } = await t.database.query<{ uuid: string }>(
      'SELECT uuid FROM chatrooms WHERE application_id = $1 ORDER BY last_message_at DESC, id DESC',
      [big.id],
    );
    expect(runs.map((r) => r[0])).toEqual(order.map((o) => o.uuid));
    const first = rows
      .slice(1)
      .filter((r) => r[0] === order[0]!.uuid)
      .map((r) => Number(r[5]!.split(' ')[1]));
    expect(first).toEqual([...first].sort((a, b) => a - b));
  });
});

describe('deleting a visitor’s conversations', () => {
  it('deletes theirs with what they hold, keeps the others, and tells open tabs', async () => {
    const app = await newApplication();
    const gone = 'telegram_777';
    const a = await insertConversation(app.id, {
      name: 'theirs 1',
      source: 'telegram',
      createdAt: '2026-04-01T10:00:00Z',
      messages: [question('hello', gone), answer('hi')],
    });
    const b = await insertConversation(app.id, {
      name: 'theirs 2',
      source: 'telegram',
      createdAt: '2026-04-02T10:00:00Z',
      messages: [question('my address is …', gone)],
    });
    await insertConversation(app.id, {
      name: 'someone else',
      source: 'telegram',
      createdAt: '2026-04-03T10:00:00Z',
      messages: [question('hello', 'telegram_778'), answer('hi')],
    });
    const { rows } = await t.database.query<{ id: number }>('SELECT id FROM chatrooms WHERE uuid = $1', [a]);
    await t.database.query(
      `INSERT INTO stored_responses (id, application_id, chatroom_id, body) VALUES ('resp_x', $1, $2, '{"text":"hello"}')`,
      [app.id, rows[0]!.id],
    );
    const socket = await openChatSocket(t.url, alice.token);
    try {
      const res = await t.call('DELETE', `/api/applications/${app.uuid}/conversations/?visitor=${gone}`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 2 });
      expect(names((await list(app.uuid)).body.results)).toEqual(['someone else']);
      const left = await t.database.query(
        `SELECT 1 FROM messages WHERE sender_identifier = $1
         UNION ALL SELECT 1 FROM stored_responses WHERE id = 'resp_x'`,
        [gone],
      );
      expect(left.rows).toHaveLength(0);
      await waitFor(() => socket.events.filter((e) => e.kind === 'chatroom_deleted').length === 2);
      expect(
        socket.events.flatMap((e) => (e.kind === 'chatroom_deleted' ? [e.chatroom_uuid] : [])).sort(),
      ).toEqual([a, b].sort());
    } finally {
      socket.close();
    }
    const again = await t.call('DELETE', `/api/applications/${app.uuid}/conversations/?visitor=${gone}`, {
      token: alice.token,
    });
    expect(again.body).toEqual({ deleted: 0 });
  });

  it.each([
    '',
    'visitor=',
    'visitor=assistant',
    'visitor=reg_1',
    'visitor=a%00b',
    `visitor=${'v'.repeat(301)}`,
  ])('refuses %s with 400', async (query) => {
    const app = await newApplication();
    await insertConversation(app.id, {
      name: 'kept',
      createdAt: '2026-04-01T10:00:00Z',
      messages: [question('hello'), answer('hi')],
    });
    const res = await t.call('DELETE', `/api/applications/${app.uuid}/conversations/?${query}`, {
      token: alice.token,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid' });
    expect((await list(app.uuid)).body.results).toHaveLength(1);
  });
});
