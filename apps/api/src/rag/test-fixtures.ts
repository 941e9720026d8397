import { randomBytes } from 'node:crypto';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Database } from '@cairn/db/client';
import type { ModelCtx } from '../lib/ctx.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { chunkDocument } from './chunk.ts';
import { indexItem } from './index-chunks.ts';
import type { ParsedDocument } from './types.ts';

/**
 * What resolving models needs, for a test or bench that opens a database without the app: a box
 * under a fresh key and a local install's provider policy, as `startTestApp` configures them.
 */
export function modelCtxOf(database: Database): ModelCtx {
  return {
    database,
    secrets: createSecretBox(randomBytes(32).toString('base64url')),
    config: { providerAddresses: { localInstance: true, allowed: [] } },
  };
}

/** Test data for the retrieval tests: rows written directly, as the ingestion job would leave them. */
export async function insertApplication(
  database: Database,
): Promise<{ userId: number; applicationId: number }> {
  const email = `rag-${randomBytes(4).toString('hex')}@example.test`;
  const [user] = (
    await database.query<{ id: number }>(
      `INSERT INTO users (email, username, password_hash, email_verified_at) VALUES ($1, $1, 'x', now()) RETURNING id`,
      [email],
    )
  ).rows;
  const [app] = (
    await database.query<{ id: number }>(
      `INSERT INTO applications (owner_id, name) VALUES ($1, 'Retrieval test') RETURNING id`,
      [user!.id],
    )
  ).rows;
  return { userId: user!.id, applicationId: app!.id };
}

export async function insertItem(database: Database, applicationId: number, title: string): Promise<number> {
  const [item] = (
    await database.query<{ id: number }>(
      `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'processing') RETURNING id`,
      [applicationId, title],
    )
  ).rows;
  return item!.id;
}

/** A one-section document, as the text parser makes it. */
export function textDocument(title: string, text: string, language?: string): ParsedDocument {
  return { title, language, sections: [{ text }] };
}

/** Indexes [title, text, language] items into the application with the built-in models; their item ids. */
export async function indexItems(
  database: Database,
  applicationId: number,
  items: readonly (readonly [string, string, string | undefined])[],
): Promise<number[]> {
  const ids: number[] = [];
  const ctx = modelCtxOf(database);
  for (const [title, text, language] of items) {
    const itemId = await insertItem(database, applicationId, title);
    await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument(title, text, language),
      llmModels: DEFAULT_LLM_MODELS,
    });
    ids.push(itemId);
  }
  return ids;
}

export { chunkDocument };
