import { describe, expect, it } from 'vitest';
import { apiSnippets } from './api-snippets';

const values = { baseUrl: 'https://cairn.example.com/api/v1', model: '3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b' };

describe('API examples', () => {
  const [curl, js, python] = apiSnippets(values);

  it('fill in the base URL and the application as the model, and read the key from the environment', () => {
    for (const snippet of [curl!, js!, python!]) {
      expect(snippet.ask).toContain(values.baseUrl);
      expect(snippet.ask).toContain(values.model);
      expect(snippet.follow).toContain(values.model);
      expect(snippet.ask).toContain('CAIRN_API_KEY');
    }
  });

  it('send valid JSON from curl, with the conversation id when continuing', () => {
    const body = (command: string) => JSON.parse(/-d '([\s\S]*)'$/.exec(command)![1]!);
    expect(body(curl!.ask)).toEqual({
      model: values.model,
      messages: [{ role: 'user', content: 'What can you help me with?' }],
    });
    expect(body(curl!.follow)).toMatchObject({ conversation_id: expect.any(String) });
  });

  it('stream with the openai packages and continue through conversation_id', () => {
    expect(js!.ask).toContain(
      `new OpenAI({\n  baseURL: '${values.baseUrl}',\n  apiKey: process.env.CAIRN_API_KEY,`,
    );
    expect(js!.ask).toContain('stream: true');
    expect(js!.follow).toContain('conversation_id: conversationId');
    expect(python!.ask).toContain(
      `OpenAI(\n    base_url="${values.baseUrl}",\n    api_key=os.environ["CAIRN_API_KEY"],`,
    );
    expect(python!.ask).toContain('stream=True');
    expect(python!.follow).toContain('extra_body={"conversation_id": conversation_id}');
  });
});
