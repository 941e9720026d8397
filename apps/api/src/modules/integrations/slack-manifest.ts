import { SLACK_BOT_EVENTS, SLACK_BOT_SCOPES } from '@cairn/contracts/integrations';

export const slackEventsUrl = (publicUrl: string, uuid: string) =>
  `${publicUrl}/api/integrations/slack/${uuid}/events/`;
export const slackInteractivityUrl = (publicUrl: string, uuid: string) =>
  `${publicUrl}/api/integrations/slack/${uuid}/interactions/`;

/** Slack limits an app's name and its bot's display name to 35 characters. */
const slackName = (name: string) => name.trim().slice(0, 35) || 'Cairn assistant';

/**
 * A Slack app manifest (https://api.slack.com/reference/manifests) for this integration: the bot's
 * scopes, its two events with the events URL, and interactivity for the feedback buttons. Pasted in
 * the app's manifest editor, Slack verifies the URL (a signed `url_verification`) and asks to
 * reinstall the app for the scopes.
 */
export function slackManifest(applicationName: string, eventsUrl: string, interactivityUrl: string): string {
  const name = slackName(applicationName);
  const manifest = {
    display_information: {
      name,
      description: 'Answers from your Cairn knowledge, with sources.',
    },
    features: {
      app_home: {
        home_tab_enabled: false,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: false,
      },
      bot_user: { display_name: name, always_online: true },
    },
    oauth_config: { scopes: { bot: [...SLACK_BOT_SCOPES] } },
    settings: {
      event_subscriptions: { request_url: eventsUrl, bot_events: [...SLACK_BOT_EVENTS] },
      interactivity: { is_enabled: true, request_url: interactivityUrl },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
  return JSON.stringify(manifest, null, 2);
}
