/**
 * Copy-ready configurations that connect an MCP client to this application's MCP server, each in its
 * client's own file format. Where the client can read the key from elsewhere (Cursor from the
 * environment, VS Code from a password prompt) the configuration does; Claude Desktop's cannot, so
 * its `env` holds a placeholder to replace.
 */
import { KEY_ENV } from './api-snippets';

export interface McpValues {
  /** `PUBLIC_URL` + `/api/v1/mcp`. */
  url: string;
  /** The application's name, for the server's key in the configuration. */
  name: string;
}

export interface McpSnippet {
  id: 'claude' | 'cursor' | 'vscode';
  label: string;
  /** Where the configuration goes. */
  file: string;
  config: string;
}

/** `Handbook 2026!` → `handbook-2026`: a configuration key clients show as the server's name. */
export function serverKey(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'cairn';
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function mcpSnippets({ url, name }: McpValues): McpSnippet[] {
  const key = serverKey(name);
  return [
    {
      id: 'claude',
      label: 'Claude Desktop',
      file: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      // Claude Desktop starts local servers only: mcp-remote bridges to ours. The header's value
      // comes from env, without spaces in args (some clients split arguments at spaces).
      config: json({
        mcpServers: {
          [key]: {
            command: 'npx',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote's own placeholder, written as is
            args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${CAIRN_AUTH_HEADER}'],
            env: { CAIRN_AUTH_HEADER: 'Bearer <your cairn_… API key>' },
          },
        },
      }),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      file: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
      config: json({
        mcpServers: {
          [key]: { url, headers: { Authorization: `Bearer \${env:${KEY_ENV}}` } },
        },
      }),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      file: '.vscode/mcp.json (or MCP: Open User Configuration)',
      config: json({
        servers: {
          [key]: {
            type: 'http',
            url,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own input variable, written as is
            headers: { Authorization: 'Bearer ${input:cairn-api-key}' },
          },
        },
        inputs: [{ type: 'promptString', id: 'cairn-api-key', description: 'Cairn API key', password: true }],
      }),
    },
  ];
}
