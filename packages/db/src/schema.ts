export * from './schema/accounts.ts';
export * from './schema/applications.ts';
export * from './schema/chat.ts';
export * from './schema/knowledge.ts';
export * from './schema/models.ts';
export * from './schema/realtime.ts';
export * from './schema/retrieval.ts';
