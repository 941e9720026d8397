import { describe, expect, it } from 'vitest';
import { mcpSnippets, serverKey } from './mcp-snippets';

const values = { url: 'https://cairn.example.com/api/v1/mcp', name: 'Support Handbook' };

describe('MCP client configurations', () => {
  const [claude, cursor, vscode] = mcpSnippets(values).map((s) => ({ ...s, parsed: JSON.parse(s.config) }));

  it('are valid JSON naming the server after the application, with its URL and the key as a bearer header', () => {
    expect(claude!.parsed.mcpServers['support-handbook']).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', values.url, '--header', 'Authorization:${CAIRN_AUTH_HEADER}'],
      env: { CAIRN_AUTH_HEADER: 'Bearer <your cairn_… API key>' },
    });
    expect(cursor!.parsed.mcpServers['support-handbook']).toEqual({
      url: values.url,
      headers: { Authorization: 'Bearer ${env:CAIRN_API_KEY}' },
    });
    expect(vscode!.parsed.servers['support-handbook']).toMatchObject({ type: 'http', url: values.url });
    expect(vscode!.parsed.inputs[0]).toMatchObject({ id: 'cairn-api-key', password: true });
    expect(vscode!.parsed.servers['support-handbook'].headers.Authorization).toBe(
      'Bearer ${input:cairn-api-key}',
    );
  });

  it('never write a real key into the configuration', () => {
    for (const snippet of [claude!, cursor!, vscode!])
      expect(snippet.config).not.toMatch(/cairn_[A-Za-z0-9]{10}/);
  });

  it('make a server key clients accept from any application name', () => {
    expect(serverKey('Café Crème 2026!')).toBe('cafe-creme-2026');
    expect(serverKey('日本語')).toBe('cairn');
    expect(serverKey(`${'a'.repeat(39)} b`)).toBe('a'.repeat(39));
  });
});
