import { applications } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import {
  addressRange,
  assertPublicAddress,
  BlockedAddressError,
  LOCAL_TESTING_HINT,
} from '../../lib/ssrf.ts';

/**
 * Refuses, as a field error, a URL whose host is written as a private, loopback, link-local or
 * otherwise non-public address (in any spelling: `[::ffff:127.0.0.1]`, `0x7f000001`…), or is
 * `localhost`, unless ALLOW_PRIVATE_URLS. Names are checked again at every delivery, where they
 * are resolved (the SSRF guard): a name may point elsewhere tomorrow.
 */
export function checkWebhookUrl(url: string, allowPrivateUrls: boolean): void {
  const host = new URL(url).hostname.toLowerCase();
  const isLocalName = host === 'localhost' || host.endsWith('.localhost');
  if (isLocalName && !allowPrivateUrls)
    throw fieldError(
      'url',
      `Must be a public address: localhost cannot be reached from Cairn. ${LOCAL_TESTING_HINT}`,
    );
  if (!addressRange(host)) return;
  try {
    assertPublicAddress(host, { allowLoopback: allowPrivateUrls });
  } catch (error) {
    if (error instanceof BlockedAddressError)
      throw fieldError('url', error.message.replace(' fetched', ' called'));
    throw error;
  }
}

/** The caller's application id for `application_uuid`; a field error when it is not theirs. */
export async function applicationIdFor(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  uuid: string | null | undefined,
) {
  if (!uuid) return null;
  const [app] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)));
  if (!app) throw fieldError('application_uuid', 'No such application.');
  return app.id;
}
