import { applications, integrations, knowledgeItems, users } from '@cairn/db/schema';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { accountDeletedMail } from '../../mail/account-templates.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { confirmPassword } from './confirm-password.ts';
import { queueAccountMail } from './send-account-mail.ts';

/**
 * Deletes the account and everything it owns. One statement, so one transaction: every table that
 * belongs to a user (applications with their knowledge, chunks, conversations, keys and widget;
 * model providers, webhooks, integrations, notifications, sessions and links) cascades from the
 * user's row. Afterwards the knowledge and integrations modules remove the stored originals no
 * other item shares and unset Telegram webhooks; the address can register again at once.
 */
export async function deleteAccount(app: Ctx, user: AuthUser, password: string): Promise<void> {
  await confirmPassword(app, user, password, 'password');
  await app.events.transaction(async (tx, emit) => {
    const owned = tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.ownerId, user.id));
    const files = await tx
      .selectDistinct({ path: knowledgeItems.filePath })
      .from(knowledgeItems)
      .where(and(inArray(knowledgeItems.applicationId, owned), isNotNull(knowledgeItems.filePath)));
    const telegramWebhooks = await tx
      .select({ uuid: integrations.uuid, botTokenCiphertext: integrations.botTokenCiphertext })
      .from(integrations)
      .where(
        and(
          eq(integrations.ownerId, user.id),
          eq(integrations.kind, 'telegram'),
          eq(integrations.mode, 'webhook'),
        ),
      );
    await tx.delete(users).where(eq(users.id, user.id));
    await queueAccountMail(app, { kind: 'notice', email: user.email, mail: accountDeletedMail() }, { tx });
    emit('applications.deleted', { files: files.map((f) => f.path), telegramWebhooks });
  });
}
