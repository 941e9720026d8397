import type { TIntegration } from '@cairn/contracts/integrations';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ChatApps } from './chat-apps';

const APP = { uuid: '3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b', name: 'Help desk' };
const base = {
  application_uuid: APP.uuid,
  last_event_at: null,
  last_error: null,
  last_error_at: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
const slack: TIntegration = {
  kind: 'slack',
  uuid: '00000000-0000-4000-8000-000000000001',
  status: 'error',
  bot_name: 'cairn',
  ...base,
  last_error: 'Slack answered: channel_not_found.',
  last_error_at: '2026-11-22T10:05:00.000Z',
  events_url: 'https://cairn.example.com/api/integrations/slack/00000000-0000-4000-8000-000000000001/events/',
  interactivity_url:
    'https://cairn.example.com/api/integrations/slack/00000000-0000-4000-8000-000000000001/interactions/',
  manifest: '{}',
};
const telegram: TIntegration = {
  kind: 'telegram',
  uuid: '00000000-0000-4000-8000-000000000002',
  status: 'connected',
  bot_name: '@help_bot',
  ...base,
  last_event_at: '2026-11-22T10:01:00.000Z',
  mode: 'polling',
  mode_reason:
    'PUBLIC_URL (http://localhost:3000) is not https, so Cairn fetches updates itself (long polling).',
};

/** The section rendered on the server, as the first page load shows it. */
function render(integrations: TIntegration[], applications = [APP]): string {
  const Stub = createRoutesStub([
    {
      path: '/settings/integrations',
      // biome-ignore lint/correctness/noComponentHookFactories: the route is built once per test, and the test renders it once
      Component: () => <ChatApps integrations={integrations} applications={applications} />,
    },
  ]);
  const html = renderToStaticMarkup(<Stub initialEntries={['/settings/integrations']} />);
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('chat apps', () => {
  it('offers to connect each kind, and says when nothing is connected', () => {
    const text = render([]);
    expect(text).toContain('Slack');
    expect(text).toContain('Telegram');
    expect(text.match(/Not connected\./g)).toHaveLength(2);
    expect(text.match(/Connect/g)?.length).toBeGreaterThanOrEqual(2);
    expect(render([], [])).toContain('Create an application first.');
  });

  it('shows each connection: status, application, last event, last error, mode or events URL', () => {
    const text = render([slack, telegram]);
    expect(text).toContain('cairn Error');
    expect(text).toContain('Slack answered: channel_not_found.');
    expect(text).toContain(slack.events_url);
    expect(text).toContain('App manifest');
    expect(text).toContain('@help_bot Connected');
    expect(text).toContain('Help desk');
    expect(text).toContain(`Long polling: ${telegram.mode_reason}`);
    expect(text).toContain('None yet');
    expect(text.match(/Disconnect/g)).toHaveLength(2);
    expect(text).not.toContain('Not connected.');
  });
});
