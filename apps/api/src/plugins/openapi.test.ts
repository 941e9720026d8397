import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

interface Schema {
  type?: string;
  format?: string;
  enum?: string[];
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  tags?: string[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.call('GET', '/api/docs/json')).body;
  });
  afterAll(() => t.close());

  it('lists /api operations only: no web pages, files or catch-alls', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/api/docs'))).toEqual([]);
  });

  it('documents JSON request bodies from the route schemas', () => {
    const patch = doc.paths['/api/applications/{appId}/']?.patch?.requestBody?.content;
    expect(Object.keys(patch ?? {})).toEqual(['application/json']);
    expect(Object.keys(patch?.['application/json']?.schema.properties ?? {})).toContain('instructions');
  });

  it.each([
    ['/api/applications/', ['name', 'items[0].type', 'items[0].value', 'items[0].title']],
    ['/api/applications/{appId}/knowledge/', ['items[0].type', 'items[0].value', 'items[0].title']],
  ])('documents the form fields of POST %s, for multipart and JSON', (path, fields) => {
    const content = doc.paths[path]?.post?.requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
    const multipart = content['multipart/form-data']!.schema;
    expect(Object.keys(multipart.properties ?? {})).toEqual(
      expect.arrayContaining([...fields, 'items[0].file', 'items[0].crawl_depth']),
    );
    expect(multipart.properties?.['items[0].file']).toMatchObject({ type: 'string', format: 'binary' });
    expect(multipart.properties?.['items[0].type']?.enum).toEqual(['file', 'text', 'url', 'qa']);
    // JSON carries strings only: no files.
    const json = content['application/json']!.schema;
    expect(Object.keys(json.properties ?? {})).toEqual(expect.arrayContaining(fields));
    expect(json.properties?.['items[0].file']).toBeUndefined();
  });

  it('documents the OpenAI-compatible completions, whole as JSON and streamed as chunk events', () => {
    const operation = doc.paths['/api/v1/chat/completions']?.post;
    expect(operation?.tags).toEqual(['openai-compatible']);
    const ok = operation?.responses?.['200']?.content ?? {};
    expect(Object.keys(ok).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(ok['application/json']!.schema.properties?.object?.enum).toEqual(['chat.completion']);
    const chunk = ok['text/event-stream']!.schema;
    expect(chunk.properties?.object?.enum).toEqual(['chat.completion.chunk']);
    expect(Object.keys(chunk.properties ?? {})).toEqual(
      expect.arrayContaining(['choices', 'usage', 'sources', 'conversation_id']),
    );
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '409']));
  });

  it('requires what the server requires: a name to create an application, an item to add knowledge', () => {
    const required = (path: string) =>
      doc.paths[path]?.post?.requestBody?.content['multipart/form-data']?.schema.required;
    expect(required('/api/applications/')).toEqual(['name']);
    expect(required('/api/applications/{appId}/knowledge/')).toEqual(['items[0].type']);
  });

  it('describes a form the server accepts as documented', async () => {
    const { token } = await t.signUp();
    const fields = doc.paths['/api/applications/']!.post!.requestBody!.content['multipart/form-data']!.schema;
    const form = new FormData();
    form.set('name', 'Documented');
    form.set('items[0].type', 'text');
    form.set('items[0].value', 'We open at nine.');
    form.set('items[1].type', 'file');
    form.set('items[1].file', new Blob(['Closed on Sundays.']), 'hours.txt');
    for (const key of form.keys()) {
      expect(Object.keys(fields.properties ?? {})).toContain(key.replace(/^items\[\d+\]/, 'items[0]'));
    }
    const created = await t.call('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    const items = await t.call('GET', `/api/applications/${created.body.uuid}/knowledge/`, { token });
    expect(items.body).toHaveLength(2);
  });
});
