import { expect } from '@playwright/test';

/**
 * A visitor on an allowed site, through the widget's API as the chat in the iframe uses it: the
 * embed page for that origin carries a fresh visitor token in its boot data; with it the visitor
 * starts a conversation (and may ask for a person).
 */
export async function visitorConversation(
  baseUrl: string,
  appId: string,
  visit: { origin: string; pageUrl: string; message: string; handoff?: boolean },
) {
  const html = await (
    await fetch(`${baseUrl}/embed/v1/${appId}?origin=${encodeURIComponent(visit.origin)}`)
  ).text();
  const boot = JSON.parse(
    /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!,
  );
  const auth = { authorization: `Bearer ${boot.token}` };
  const sent = await fetch(`${baseUrl}/api/widget/v1/messages/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ conversation_uuid: null, message: visit.message, page_url: visit.pageUrl }),
  });
  expect(sent.status).toBe(201);
  const { conversation } = (await sent.json()) as { conversation: { uuid: string } };
  if (visit.handoff) {
    const handoff = await fetch(`${baseUrl}/api/widget/v1/conversations/${conversation.uuid}/handoff/`, {
      method: 'POST',
      headers: auth,
    });
    expect(handoff.status).toBe(200);
  }
  return { uuid: conversation.uuid, token: boot.token as string };
}
