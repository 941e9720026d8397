import { randomUUID } from 'node:crypto';
import {
  INTEGRATIONS_MAX,
  type TIntegration,
  type ZCreateIntegrationRequest,
} from '@cairn/contracts/integrations';
import { applications, integrations } from '@cairn/db/schema';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { sealSecret } from './integration-secrets.ts';
import { serializeIntegration } from './serialize-integration.ts';
import { checkSlackToken } from './slack-client.ts';
import { checkTelegramToken } from './telegram-client.ts';
import { connectTelegram, disconnectTelegram } from './telegram-connect.ts';

/** The caller's application, or a 400 on `application_uuid`. */
export async function ownedApplication({ db }: Pick<Ctx, 'db'>, ownerId: number, uuid: string) {
  const [row] = await db
    .select({ id: applications.id, uuid: applications.uuid, name: applications.name })
    .from(applications)
    .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)));
  if (!row) throw fieldError('application_uuid', 'No such application.');
  return row;
}

/** Connects a Slack app or a Telegram bot to one of the owner's applications. */
export async function createIntegration(
  app: Ctx,
  ownerId: number,
  input: z.output<typeof ZCreateIntegrationRequest>,
): Promise<TIntegration> {
  const application = await ownedApplication(app, ownerId, input.application_uuid);
  const [existing] = await app.db
    .select({ n: count() })
    .from(integrations)
    .where(eq(integrations.ownerId, ownerId));
  if ((existing?.n ?? 0) >= INTEGRATIONS_MAX)
    throw new AppError(
      'conflict',
      `You can have at most ${INTEGRATIONS_MAX} chat integrations. Delete one first.`,
    );
  const uuid = randomUUID();
  const box = app.secrets;
  const common = {
    uuid,
    ownerId,
    applicationId: application.id,
    botTokenCiphertext: sealSecret(box, uuid, 'bot_token', input.bot_token),
  };
  let values: typeof integrations.$inferInsert;
  if (input.kind === 'slack') {
    const bot = await checkSlackToken(app.config, input.bot_token, app.log);
    values = {
      ...common,
      kind: 'slack',
      ...bot,
      signingSecretCiphertext: sealSecret(box, uuid, 'signing_secret', input.signing_secret),
    };
  } else {
    const bot = await checkTelegramToken(app.config, input.bot_token);
    const connection = await connectTelegram(app, uuid, input.bot_token);
    values = {
      ...common,
      kind: 'telegram',
      ...bot,
      mode: connection.mode,
      modeReason: connection.modeReason,
      signingSecretCiphertext: connection.webhookSecret
        ? sealSecret(box, uuid, 'signing_secret', connection.webhookSecret)
        : null,
    };
  }
  const [row] = await app.db
    .insert(integrations)
    .values(values)
    .returning()
    .catch(async (error: unknown) => {
      // Telegram would otherwise push every message to an integration that does not exist.
      if (values.mode === 'webhook') await disconnectTelegram(app, uuid, input.bot_token);
      throw error;
    });
  if (row!.mode === 'polling') app.integrations.wakePoller();
  return serializeIntegration({ integration: row!, application }, app.config.publicUrl);
}
