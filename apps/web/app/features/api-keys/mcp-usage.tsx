import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { KEY_ENV } from './api-snippets';
import { Code, CodeBlock, CopyableValue } from './api-usage';
import { type McpValues, mcpSnippets } from './mcp-snippets';

/**
 * How to reach this application from AI tools over MCP: the server's URL, and the configuration for
 * Claude Desktop, Cursor and VS Code with this application filled in.
 */
export function McpUsage(values: McpValues) {
  const snippets = mcpSnippets(values);
  return (
    <div className="grid gap-6">
      <dl className="grid gap-4">
        <CopyableValue
          label="MCP server URL"
          value={values.url}
          description="Streamable HTTP. Send one of the keys above as Authorization: Bearer …"
        />
      </dl>
      <p className="text-muted-foreground text-sm">
        Tools: <Code>search_knowledge</Code> (the passages) and <Code>ask</Code> (the cited answer, kept as a
        conversation marked MCP). The knowledge items are resources. Cursor reads the key from{' '}
        <Code>{KEY_ENV}</Code>; VS Code asks for it once; for Claude Desktop, put it in the file.
      </p>
      <Tabs defaultValue="claude" className="grid min-w-0 gap-4">
        <TabsList aria-label="MCP client">
          {snippets.map((snippet) => (
            <TabsTrigger key={snippet.id} value={snippet.id}>
              {snippet.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {snippets.map((snippet) => (
          <TabsContent key={snippet.id} value={snippet.id} className="min-w-0">
            <CodeBlock
              title={snippet.file}
              code={snippet.config}
              copyLabel={`Copy the ${snippet.label} configuration`}
            />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
