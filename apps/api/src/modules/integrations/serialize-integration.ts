import type { TIntegration } from '@cairn/contracts/integrations';
import type { IntegrationWithApp } from './find-integration.ts';
import { slackEventsUrl, slackInteractivityUrl, slackManifest } from './slack-manifest.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An integration as the API shows it: never a token or a secret. */
export function serializeIntegration(
  { integration: row, application }: IntegrationWithApp,
  publicUrl: string,
): TIntegration {
  const base = {
    uuid: row.uuid,
    application_uuid: application.uuid,
    status: row.status,
    bot_name: row.botName,
    last_event_at: iso(row.lastEventAt),
    last_error: row.lastError,
    last_error_at: iso(row.lastErrorAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
  if (row.kind === 'telegram') {
    return { kind: 'telegram', ...base, mode: row.mode ?? 'polling', mode_reason: row.modeReason ?? '' };
  }
  const eventsUrl = slackEventsUrl(publicUrl, row.uuid);
  const interactivityUrl = slackInteractivityUrl(publicUrl, row.uuid);
  return {
    kind: 'slack',
    ...base,
    events_url: eventsUrl,
    interactivity_url: interactivityUrl,
    manifest: slackManifest(application.name, eventsUrl, interactivityUrl),
  };
}
