/**
 * Copy-ready examples for the OpenAI-compatible API, filled in with one application's values. The key
 * is always read from the environment, never written into the example: examples get pasted into
 * source files, tickets and screenshots, and a key shown once should stay where the user put it.
 */
export const KEY_ENV = 'CAIRN_API_KEY';

export interface SnippetValues {
  /** `PUBLIC_URL` + `/api/v1`. */
  baseUrl: string;
  /** The application's uuid, which is the `model`. */
  model: string;
}

export interface Snippet {
  id: 'curl' | 'javascript' | 'python';
  label: string;
  /** Asks a question and streams (or prints) the answer. */
  ask: string;
  /** Continues the conversation the first answer started. */
  follow: string;
}

const QUESTION = 'What can you help me with?';
const FOLLOW_UP = 'Tell me more about the first point.';

function curl({ baseUrl, model }: SnippetValues): Snippet {
  const request = (fields: string[]) =>
    [
      `curl ${baseUrl}/chat/completions \\`,
      `  -H "Authorization: Bearer $${KEY_ENV}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{`,
      fields.map((field) => `    ${field}`).join(',\n'),
      `  }'`,
    ].join('\n');
  return {
    id: 'curl',
    label: 'curl',
    ask: request([`"model": "${model}"`, `"messages": [{"role": "user", "content": "${QUESTION}"}]`]),
    follow: request([
      `"model": "${model}"`,
      `"conversation_id": "<conversation_id from the previous answer>"`,
      `"messages": [{"role": "user", "content": "${FOLLOW_UP}"}]`,
    ]),
  };
}

function javascript({ baseUrl, model }: SnippetValues): Snippet {
  const client = `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: '${baseUrl}',
  apiKey: process.env.${KEY_ENV},
});`;
  return {
    id: 'javascript',
    label: 'JavaScript',
    ask: `${client}

const stream = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: '${QUESTION}' }],
  stream: true,
});

let conversationId;
for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
  conversationId ??= chunk.conversation_id;
  // The last chunk lists the passages cited as [1], [2] …
  if (chunk.sources?.length) console.log('\\n', chunk.sources);
}`,
    follow: `// Cairn keeps the history: send only the new message, with the conversation's id.
const answer = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: '${FOLLOW_UP}' }],
  conversation_id: conversationId,
});
console.log(answer.choices[0].message.content);`,
  };
}

function python({ baseUrl, model }: SnippetValues): Snippet {
  return {
    id: 'python',
    label: 'Python',
    ask: `import os
from openai import OpenAI

client = OpenAI(
    base_url="${baseUrl}",
    api_key=os.environ["${KEY_ENV}"],
)

stream = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "${QUESTION}"}],
    stream=True,
)

conversation_id = None
for chunk in stream:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="", flush=True)
    conversation_id = conversation_id or getattr(chunk, "conversation_id", None)
    # The last chunk lists the passages cited as [1], [2] …
    if getattr(chunk, "sources", None):
        print("\\n", chunk.sources)`,
    follow: `# Cairn keeps the history: send only the new message, with the conversation's id.
answer = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "${FOLLOW_UP}"}],
    extra_body={"conversation_id": conversation_id},
)
print(answer.choices[0].message.content)`,
  };
}

export function apiSnippets(values: SnippetValues): Snippet[] {
  return [curl(values), javascript(values), python(values)];
}
