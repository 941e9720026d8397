import { indexItem } from '../rag/index-chunks.ts';
import { insertItem, textDocument } from '../rag/test-fixtures.ts';
import type { TestApp } from './test-app.ts';

/** An application of the owner whose knowledge holds the documents, indexed as ingestion leaves them. */
export async function applicationWith(
  t: TestApp,
  token: string,
  docs: Array<{ title: string; text: string }>,
): Promise<{ uuid: string; items: string[] }> {
  const created = await t.call('POST', '/api/applications/', { token, json: { name: 'Support' } });
  if (created.status !== 201) throw new Error(`create application failed: ${JSON.stringify(created.body)}`);
  const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
    created.body.uuid,
  ]);
  const items: string[] = [];
  for (const doc of docs) {
    const itemId = await insertItem(t.database, rows[0]!.id, doc.title);
    await indexItem(t.app, {
      applicationId: rows[0]!.id,
      itemId,
      document: textDocument(doc.title, doc.text),
      llmModels: created.body.llm_models,
    });
    const ready = await t.database.query<{ uuid: string }>(
      `UPDATE knowledge_items SET status = 'ready' WHERE id = $1 RETURNING uuid`,
      [itemId],
    );
    items.push(ready.rows[0]!.uuid);
  }
  return { uuid: created.body.uuid as string, items };
}

/** Points the application at a text model of an OpenAI-compatible provider (a local wire-format server). */
export async function useProviderModel(
  t: TestApp,
  token: string,
  appUuid: string,
  opts: { baseUrl: string; key?: string | undefined; model?: string },
): Promise<void> {
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'openai_compatible', name: 'Local', base_url: opts.baseUrl, api_key: opts.key },
  });
  if (provider.status !== 201) throw new Error(`create provider failed: ${JSON.stringify(provider.body)}`);
  const model = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
    token,
    json: { name: opts.model ?? 'fake-chat', model_type: 'text' },
  });
  if (model.status !== 201) throw new Error(`add model failed: ${JSON.stringify(model.body)}`);
  const updated = await t.call('PATCH', `/api/applications/${appUuid}/`, {
    token,
    json: { llm_models: [model.body.uuid, 'builtin-embedding'] },
  });
  if (updated.status !== 200) throw new Error(`choose model failed: ${JSON.stringify(updated.body)}`);
}

/** The owner asks in a new web chat, as the chat page does; the response holds the pending answer. */
export function sendChatMessage(
  t: TestApp,
  owner: { token: string; user: { id: number } },
  appUuid: string,
  message: string,
) {
  return t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
    token: owner.token,
    json: {
      chatroom_identifier: 'new_chat',
      message,
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });
}

/**
 * Every conversation of an application, latest activity first, read from the database: the sidebar
 * (`GET …/chatrooms/`) lists only the owner's own chats and those a person is in (decision 067).
 */
export async function conversationsOf(
  t: TestApp,
  appUuid: string,
): Promise<Array<{ uuid: string; name: string; source: string }>> {
  const { rows } = await t.database.query<{ uuid: string; name: string; source: string }>(
    `SELECT c.uuid, c.name, c.source FROM chatrooms c JOIN applications a ON a.id = c.application_id
      WHERE a.uuid = $1 ORDER BY c.last_message_at DESC, c.id DESC`,
    [appUuid],
  );
  return rows;
}
