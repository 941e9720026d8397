import { API_KEY_PREFIX } from '@cairn/contracts/api-key-limits';
import type * as React from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { apiSnippets, KEY_ENV, type Snippet, type SnippetValues } from './api-snippets';
import { CopyButton } from './copy-button';

const FOLLOW_HOW: Record<Snippet['id'], React.ReactNode> = {
  curl: (
    <>
      Send the answer’s <Code>conversation_id</Code> with the next question instead of the history. Add{' '}
      <Code>"stream": true</Code> for server-sent events.
    </>
  ),
  javascript: (
    <>
      Pass <Code>conversation_id</Code> in the request object, next to <Code>model</Code>.
    </>
  ),
  python: (
    <>
      Pass <Code>conversation_id</Code> through <Code>extra_body</Code>.
    </>
  ),
};

export function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">{children}</code>;
}

/** A labelled, copyable block of code that scrolls sideways instead of widening the page. */
export function CodeBlock({ title, code, copyLabel }: { title: string; code: string; copyLabel: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border">
      <div className="flex items-center justify-between gap-2 border-b bg-muted/50 py-1.5 pr-1.5 pl-3">
        <figcaption className="text-muted-foreground text-xs font-medium">{title}</figcaption>
        <CopyButton value={code} label={copyLabel} variant="ghost" className="h-7">
          Copy
        </CopyButton>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <pre className="overflow-x-auto p-4 text-xs leading-relaxed" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export function CopyableValue({
  label,
  value,
  description,
}: {
  label: string;
  value: string;
  description: string;
}) {
  return (
    <div className="grid gap-1.5">
      <dt className="font-medium text-sm">{label}</dt>
      <dd className="grid gap-1">
        <div className="flex items-center gap-2">
          <span className="min-w-0 flex-1 break-all rounded-md border bg-muted/50 px-3 py-1.5 font-mono text-sm">
            {value}
          </span>
          <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
        </div>
        <p className="text-muted-foreground text-sm">{description}</p>
      </dd>
    </div>
  );
}

/**
 * How to call this application from code: its base URL and id, and examples with its values filled
 * in for curl, the `openai` npm package and the `openai` Python package.
 */
export function ApiUsage(values: SnippetValues) {
  const snippets = apiSnippets(values);
  return (
    <div className="grid gap-6">
      <dl className="grid gap-4 sm:grid-cols-2">
        <CopyableValue
          label="Base URL"
          value={values.baseUrl}
          description="For any OpenAI-compatible client or SDK."
        />
        <CopyableValue
          label="Application ID"
          value={values.model}
          description="Send it as the model. GET /models lists it too."
        />
      </dl>
      <p className="text-muted-foreground text-sm">
        The examples read the key from <Code>{KEY_ENV}</Code>: set it to one of your keys first, e.g.{' '}
        <Code>
          export {KEY_ENV}={API_KEY_PREFIX}…
        </Code>
        . Answers cite passages inline as <Code>[1]</Code>; the response’s <Code>sources</Code> lists them.
      </p>
      <Tabs defaultValue="curl" className="grid min-w-0 gap-4">
        <TabsList aria-label="Language">
          {snippets.map((snippet) => (
            <TabsTrigger key={snippet.id} value={snippet.id}>
              {snippet.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {snippets.map((snippet) => (
          <TabsContent key={snippet.id} value={snippet.id} className="grid min-w-0 gap-4">
            <CodeBlock
              title={snippet.id === 'curl' ? 'Ask a question' : 'Ask a question, streaming the answer'}
              code={snippet.ask}
              copyLabel={`Copy the ${snippet.label} example`}
            />
            <div className="grid gap-2">
              <h3 className="font-medium text-sm">Continue the conversation</h3>
              <p className="text-muted-foreground text-sm">{FOLLOW_HOW[snippet.id]}</p>
              <CodeBlock
                title="Ask a follow-up question"
                code={snippet.follow}
                copyLabel={`Copy the ${snippet.label} follow-up example`}
              />
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
