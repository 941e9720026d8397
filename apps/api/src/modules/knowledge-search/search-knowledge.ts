import type { TKnowledgeSearchRequest, TKnowledgeSearchResponse } from '@cairn/contracts/knowledge-search';
import type { Database } from '@cairn/db/client';
import { retrieve } from '../../rag/retrieve.ts';
import { findApplication } from '../applications/find-application.ts';

/** The passages of the caller's application that best answer a query (404 for another's application). */
export async function searchKnowledge(
  database: Database,
  ownerId: number,
  appUuid: string,
  input: TKnowledgeSearchRequest,
): Promise<TKnowledgeSearchResponse> {
  const application = await findApplication(database.db, ownerId, appUuid);
  const results = await retrieve(
    database,
    { id: application.id, llmModels: application.llmModels },
    input.query,
    input.top_k,
  );
  return { results };
}
