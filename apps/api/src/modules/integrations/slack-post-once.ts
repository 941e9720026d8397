import type { WebClient } from '@slack/web-api';
import type { FastifyBaseLogger } from 'fastify';
import { slackErrorCode } from './slack-client.ts';

/** A message Cairn posts: in a thread (a reply) or in a channel (a notification). */
export interface SlackPost {
  /** A channel ID, or a channel's name (notifications may name their channel). */
  channel: string;
  thread_ts?: string;
  text: string;
  blocks?: Array<{ type: string; [key: string]: unknown }>;
}

/** What makes a post findable again: carried as the message's metadata (Slack has no idempotency key). */
export interface PostKey {
  /** `cairn_reply` (an answer's uuid) or `cairn_notification` (a notification's uuid). */
  type: 'cairn_reply' | 'cairn_notification';
  id: string;
  /** The job ran before (a retry, or taken again after its process died): look for its post first. */
  rerun: boolean;
  /** The integration's uuid: the one warning about missing scopes is per integration. */
  integration: string;
  /** Nothing of this job was posted before this time: bounds a channel's history read (not a thread's). */
  since?: Date;
}

/** Slack's limit on a history page; a re-run reads a few pages at most. */
const PAGE = 200;
/** A thread or window longer than this is not read to its end: the post is taken as not made. */
const MAX_PAGES = 25;
/** Slack's clock against ours. */
const CLOCK_MARGIN_S = 10 * 60;
/** `C0123ABCD`, `G…` (an older private channel) or `D…` (a direct message); names are lower case. */
const CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;

/** A channel or thread that is not there (or that the bot left) holds no post: the post itself says what is wrong. */
const NOTHING_TO_READ = new Set(['channel_not_found', 'not_in_channel', 'thread_not_found']);

/** Integrations already warned that their app lacks a history scope, in this process. */
const warnedScopes = new Set<string>();

interface Page {
  messages?: Array<{ metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }>;
  response_metadata?: { next_cursor?: string };
}

async function anyPageHolds(read: (cursor: string | undefined) => Promise<Page>, key: PostKey) {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    const found = result.messages?.some(
      (m) => m.metadata?.event_type === key.type && m.metadata.event_payload?.id === key.id,
    );
    if (found) return true;
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) return false;
  }
  return false;
}

/** A channel's ID: a name is looked up among the channels the bot is in (it can post nowhere else). */
async function channelIdOf(client: WebClient, channel: string): Promise<string | null> {
  if (CHANNEL_ID.test(channel)) return channel;
  const name = channel.replace(/^#/, '');
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.users.conversations({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 1000,
      cursor,
    });
    const match = result.channels?.find((c) => c.name === name.toLowerCase());
    if (match?.id) return match.id;
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) return null;
  }
  return null;
}

/** Whether the channel or thread already holds this job's post. */
async function postedBefore(client: WebClient, post: SlackPost, key: PostKey): Promise<boolean> {
  const threadTs = post.thread_ts;
  if (threadTs)
    return anyPageHolds(
      (cursor) =>
        client.conversations.replies({
          channel: post.channel,
          ts: threadTs,
          include_all_metadata: true,
          limit: PAGE,
          cursor,
        }),
      key,
    );
  const channel = await channelIdOf(client, post.channel);
  if (!channel) return false;
  const oldest = key.since && String(Math.floor(key.since.getTime() / 1000) - CLOCK_MARGIN_S);
  return anyPageHolds(
    (cursor) =>
      client.conversations.history({
        channel,
        ...(oldest && { oldest }),
        include_all_metadata: true,
        limit: PAGE,
        cursor,
      }),
    key,
  );
}

/**
 * Whether a read that failed still lets the post go: nothing to read there, or an app without the
 * scopes to read (said once per integration). Anything else (Slack out of reach) fails the job.
 */
function readFailureAllowsPost(error: unknown, log: FastifyBaseLogger, integration: string): boolean {
  const code = slackErrorCode(error);
  if (code !== null && NOTHING_TO_READ.has(code)) return true;
  if (code !== 'missing_scope') return false;
  if (!warnedScopes.has(integration)) {
    warnedScopes.add(integration);
    log.warn(
      { integration, needed: (error as { data?: { needed?: string } }).data?.needed },
      'this Slack app cannot read channel history: a retried post is posted without looking for the earlier one (paste the new manifest and reinstall the app)',
    );
  }
  return true;
}

/**
 * Posts a message once, though its job may run again after Slack took the post (a process killed
 * before pg-boss marked the job done). Every post carries its key as message metadata; a re-run
 * first reads the thread (or the channel since the job began) and posts only if no message holds
 * that key. An app installed before the history scopes were asked for cannot read: it posts anyway
 * (a duplicate is then possible after a crash, as before), and says so once. Decision 073.
 */
export async function postToSlackOnce(
  client: WebClient,
  log: FastifyBaseLogger,
  post: SlackPost,
  key: PostKey,
): Promise<void> {
  if (key.rerun) {
    try {
      if (await postedBefore(client, post, key)) {
        log.info({ key: key.type, id: key.id }, 'slack post found from an earlier run: not posted again');
        return;
      }
    } catch (error) {
      if (!readFailureAllowsPost(error, log, key.integration)) throw error;
    }
  }
  await client.chat.postMessage({
    ...post,
    unfurl_links: false,
    metadata: { event_type: key.type, event_payload: { id: key.id } },
  });
}
