import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Application, ChatroomSummary, User } from '../lib/types';
import { AppSidebar } from './app-sidebar';

const APP = '3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b';

/** The sidebar rendered on the server, as the first page load shows it. */
function render(chatrooms: ChatroomSummary[], more = false): string {
  // Only the fields the sidebar reads.
  const application = { uuid: APP, name: 'Trail guide' } as Application;
  const user = { id: 1, name: 'Ada', email: 'ada@example.com' } as User;
  const Stub = createRoutesStub([
    {
      path: '/applications/:appId',
      // biome-ignore lint/correctness/noComponentHookFactories: the route is built once per test, and the test renders it once
      Component: () => (
        <AppSidebar
          user={user}
          applications={[application]}
          selected={application}
          chatrooms={{ chatrooms, error: null, more }}
        />
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={[`/applications/${APP}`]} />);
}

/** Each chatroom link's text, as a screen reader reads it (visually hidden words included). */
function linkTexts(html: string): string[] {
  return [
    ...html.matchAll(/<a [^>]*href="\/applications\/[^/]+\/messages\/[0-9a-f-]{36}"[^>]*>(.*?)<\/a>/g),
  ].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));
}

describe('sidebar chatroom source', () => {
  it('marks conversations that did not start in the web app, and only those', () => {
    const room = (n: number, source: ChatroomSummary['source'], name: string): ChatroomSummary => ({
      uuid: `00000000-0000-4000-8000-00000000000${n}`,
      name,
      source,
    });
    const html = render([
      room(1, 'web', 'Opening hours'),
      room(2, 'api', 'Refund policy'),
      room(3, 'widget', 'Parking'),
      room(4, 'telegram', 'Directions'),
    ]);
    expect(linkTexts(html)).toEqual([
      'Opening hours',
      'Refund policy, via API',
      'Parking, via Widget',
      'Directions, via Telegram',
    ]);
  });
});

describe('sidebar waiting chatrooms', () => {
  it('marks a widget chatroom waiting for a person, in words, and counts them', () => {
    const html = render([
      {
        uuid: '00000000-0000-4000-8000-000000000001',
        name: 'Can I bring my dog?',
        source: 'widget',
        handled_by: 'human',
        waiting_since: '2026-01-01T10:00:00.000Z',
      } as ChatroomSummary,
      {
        uuid: '00000000-0000-4000-8000-000000000002',
        name: 'Parking',
        source: 'widget',
        handled_by: 'assistant',
        waiting_since: null,
      } as ChatroomSummary,
    ]);
    expect(linkTexts(html)).toEqual([
      'Can I bring my dog?, via Widget, Waiting for a person',
      'Parking, via Widget',
    ]);
    expect(html.replace(/<[^>]+>/g, '')).toContain('Chats1 waiting for a person');
  });

  it('shows no count while nobody waits', () => {
    const html = render([
      { uuid: '00000000-0000-4000-8000-000000000003', name: 'Hours', source: 'web' } as ChatroomSummary,
    ]);
    expect(html).not.toContain('waiting');
  });
});

describe('sidebar with more chats than it shows', () => {
  const rooms = [
    { uuid: '00000000-0000-4000-8000-000000000004', name: 'Hours', source: 'web' } as ChatroomSummary,
  ];
  const allChats = /<a [^>]*href="([^"]+)"[^>]*>All chats<\/a>/;

  it('links to the web chats in the conversation log', () => {
    expect(render(rooms, true).match(allChats)?.[1]).toBe(`/applications/${APP}/conversations?source=web`);
  });

  it('has no such link when it shows them all', () => {
    expect(render(rooms, false)).not.toMatch(allChats);
  });
});
