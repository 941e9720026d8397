import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalIndexState, warmLexicalIndex } from '../../rag/lexical-index.ts';
import { lexicalSearch, lexicalSearchSql } from '../../rag/retrieve.ts';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { NOT_COVERED_ANSWERS } from '../chatrooms/answer/no-answer.ts';
import { listedItems } from '../mcp/knowledge-text.ts';

/**
 * Switching an item off takes it out of search and answers at once, on every path (the
 * in-process copy of the postings, BM25 in SQL, vectors, answers), and back on with no re-index.
 */
const GUIDE = {
  title: 'Lantern guide',
  text: '# Guarantee\n\nThe storm lantern carries a five-year guarantee on its brass burner. Keep the receipt.',
};
const FERRY = {
  title: 'Ferry timetable',
  text: 'The ferry leaves the harbour at 7:15 on weekdays and at 8:30 on Sundays. It does not sail in gales.',
};
const QUESTION = 'How long is the guarantee of the storm lantern?';

let t: TestApp;
let owner: { token: string; user: { id: number } };
let app: { uuid: string; items: string[] };
let applicationId: number;
let tab: Awaited<ReturnType<typeof openChatSocket>>;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
  tab = await openChatSocket(t.url, owner.token);
  app = await applicationWith(t, owner.token, [GUIDE, FERRY]);
  const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
    app.uuid,
  ]);
  applicationId = rows[0]!.id;
});
afterAll(async () => {
  tab.close();
  await t.close();
});

let lastDecision: { answered: boolean } | undefined;
const search = async (query: string) => {
  const res = await t.call('POST', `/api/applications/${app.uuid}/knowledge/search/`, {
    token: owner.token,
    json: { query, top_k: 50 },
  });
  expect(res.status).toBe(200);
  lastDecision = res.body.decision;
  return res.body.results as Array<{ item_uuid: string; chunk_id: number }>;
};
const switchTo = async (enabled: boolean) => {
  const res = await t.call('PATCH', `/api/applications/${app.uuid}/knowledge/${app.items[0]}/`, {
    token: owner.token,
    json: { enabled },
  });
  expect(res.status).toBe(200);
};
async function ask(message: string) {
  const res = await t.call('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
    token: owner.token,
    json: {
      chatroom_identifier: 'new_chat',
      message,
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });
  expect(res.status).toBe(201);
  return tab.finalOf(res.body.answer.uuid);
}
const guideChunks = (results: Array<{ item_uuid: string; chunk_id: number }>) =>
  results.filter((r) => r.item_uuid === app.items[0]).map((r) => r.chunk_id);

describe('switching an item off and on', () => {
  it('leaves it out of search and answers at once, and brings it back with the same chunks', async () => {
    // The in-process copy is current, so the first search after the switch would use it if it could.
    await warmLexicalIndex(t.database, applicationId);
    const before = guideChunks(await search('guarantee lantern'));
    expect(before.length).toBeGreaterThan(0);
    await search(QUESTION);
    expect(lastDecision?.answered).toBe(true);
    const cited = await ask(QUESTION);
    expect((cited.metadata.sources as Array<{ item_uuid: string }>)[0]?.item_uuid).toBe(app.items[0]);

    await switchTo(false);
    // The first search after the switch: the copy is out of date, BM25 in SQL answers.
    expect(await search('guarantee lantern')).toEqual([]);
    expect((await search('ferry Sundays')).map((r) => r.item_uuid)).toEqual([app.items[1]]);
    expect(await lexicalSearchSql(t.database, applicationId, 'guarantee lantern', 50)).toEqual([]);
    const off = await warmLexicalIndex(t.database, applicationId);
    // The ranking itself, not only the passages loaded after it (which check `enabled` again).
    const searchesBefore = lexicalIndexState(t.database, applicationId)!.searches;
    expect(await lexicalSearch(t.database, applicationId, 'guarantee lantern', 50)).toEqual([]);
    expect(lexicalIndexState(t.database, applicationId)!.searches).toBe(searchesBefore + 1);
    expect(guideChunks(await search('guarantee lantern'))).toEqual([]);
    expect(off?.chunkCount).toBe(2);
    // The retrieval test foretells what the answer does.
    await search(QUESTION);
    expect(lastDecision?.answered).toBe(false);
    const declined = await ask(QUESTION);
    expect(declined.message).toBe(NOT_COVERED_ANSWERS.en);
    expect(declined.metadata.sources).toEqual([]);

    await switchTo(true);
    expect(guideChunks(await search('guarantee lantern'))).toEqual(before);
    const again = await ask(QUESTION);
    expect((again.metadata.sources as Array<{ item_uuid: string }>)[0]?.item_uuid).toBe(app.items[0]);
  });

  it('makes every process drop its copy of the postings: the knowledge version moves on', async () => {
    const version = async () =>
      (
        await t.database.query<{ version: string }>(
          'SELECT version::text AS version FROM knowledge_index_stats WHERE application_id = $1',
          [applicationId],
        )
      ).rows[0]!.version;
    const start = BigInt(await version());
    await switchTo(false);
    expect(BigInt(await version())).toBe(start + 1n);
    await switchTo(false);
    await switchTo(true);
    expect(BigInt(await version())).toBe(start + 3n);
  });

  it('hides a switched-off item from MCP clients’ resources too', async () => {
    await switchTo(false);
    expect((await listedItems(t.app, applicationId)).map((i) => i.uuid)).toEqual([app.items[1]]);
    await switchTo(true);
    expect((await listedItems(t.app, applicationId)).map((i) => i.uuid).sort()).toEqual(
      [...app.items].sort(),
    );
  });
});
