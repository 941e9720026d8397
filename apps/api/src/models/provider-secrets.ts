import type { Database } from '@cairn/db/client';
import type { SecretBox } from '../lib/secret-box.ts';

/**
 * The secret box that opens provider keys stored in a database. The app binds it once at start
 * (model-providers plugin) so model resolution keeps the simple `(database, …)` signature used by
 * the chat and ingestion workers, without a process-wide singleton (tests run several apps).
 */
const boxes = new WeakMap<Database, SecretBox>();

export function bindSecretBox(database: Database, box: SecretBox): void {
  boxes.set(database, box);
}

export function secretBoxFor(database: Database): SecretBox {
  const box = boxes.get(database);
  if (!box) throw new Error('No secret box bound to this database: register the model-providers plugin.');
  return box;
}

/** What the key of a provider row is sealed against (its uuid), so a sealed key cannot move rows. */
export const keyContext = (providerUuid: string) => `model_provider:${providerUuid}`;
