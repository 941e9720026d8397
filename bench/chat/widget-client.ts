/**
 * The website widget as a visitor's browser uses it, for the benches: the embed page mints the
 * visitor's token, the event stream is read as the iframe reads it, and questions are posted.
 * Every time is on this (client) process's clock.
 */

/** The site the bench's widget is embedded on. */
export const WIDGET_ORIGIN = 'https://shop.example.com';

/** Turns the widget on for the bench's site, with limits no bench reaches. */
export async function enableWidget(url: string, appUuid: string, ownerToken: string): Promise<void> {
  const res = await fetch(`${url}/api/applications/${appUuid}/widget/`, {
    method: 'PATCH',
    headers: { authorization: `Token ${ownerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      enabled: true,
      allowed_origins: [WIDGET_ORIGIN],
      limits: {
        visitor_messages_per_hour: 10_000,
        visitor_messages_per_day: 100_000,
        ip_messages_per_hour: 100_000,
        ip_messages_per_day: 1_000_000,
      },
    }),
  });
  if (res.status !== 200) throw new Error(`widget settings: ${res.status} ${await res.text()}`);
}

async function visitorToken(url: string, appUuid: string): Promise<string> {
  const html = await (
    await fetch(`${url}/embed/v1/${appUuid}?origin=${encodeURIComponent(WIDGET_ORIGIN)}`)
  ).text();
  const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  if (!boot) throw new Error('the embed page minted no token');
  return (JSON.parse(boot) as { token: string }).token;
}

/** A realtime event as the widget's stream and the owner's socket carry it (the fields the benches read). */
export type ChatEvent = {
  kind: string;
  message_uuid?: string;
  message?: { uuid: string; status: string; text: string };
};

export type Visitor = Awaited<ReturnType<typeof openVisitor>>;

/** A visitor: their event stream, read as the iframe reads it, and their questions. */
export async function openVisitor(url: string, appUuid: string) {
  const token = await visitorToken(url, appUuid);
  const finals = new Map<string, (text: string) => void>();
  const done = new Map<string, string>();
  const firstDelta = new Map<string, number>();
  const res = await fetch(`${url}/api/widget/v1/events/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`events: ${res.status}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (ended) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as ChatEvent;
        if (event.kind === 'delta' && !firstDelta.has(event.message_uuid!)) {
          firstDelta.set(event.message_uuid!, performance.now());
        }
        const message = event.message;
        if (
          event.kind === 'updated' &&
          message &&
          ['complete', 'failed', 'stopped'].includes(message.status)
        ) {
          done.set(message.uuid, message.status);
          finals.get(message.uuid)?.(message.status);
        }
      }
    }
  })();
  let conversation: string | null = null;
  return {
    /** Answer uuid → when its first delta arrived on this visitor's stream. */
    firstDelta,
    /** Sends one question and waits for its answer's final event. */
    async ask(text: string, benchId?: string): Promise<{ answer: string; sentAt: number; status: string }> {
      const sentAt = performance.now();
      const res = await fetch(`${url}/api/widget/v1/messages/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(benchId && { 'x-bench-id': benchId }),
        },
        body: JSON.stringify({ conversation_uuid: conversation, message: text }),
      });
      if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { conversation: { uuid: string }; answer: { uuid: string } };
      conversation = body.conversation.uuid;
      const answer = body.answer.uuid;
      const status =
        done.get(answer) ?? (await new Promise<string>((resolve) => finals.set(answer, resolve)));
      return { answer, sentAt, status };
    },
    /**
     * The conversation read back: how many of `turns` questions and answers are missing, and how
     * many answers are stored but not complete ("no message lost").
     */
    async audit(turns: number): Promise<{ lost: number; incomplete: number }> {
      const res = await fetch(`${url}/api/widget/v1/conversations/${conversation}/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { messages: Array<{ role: string; status: string }> };
      return {
        lost: 2 * turns - body.messages.length,
        incomplete: body.messages.filter((m) => m.role === 'assistant' && m.status !== 'complete').length,
      };
    },
    async close() {
      await reader.cancel().catch(() => {});
      await reading;
    },
  };
}
