import { DEFAULT_WIDGET_SETTINGS } from '@cairn/contracts/widget';
import type { Db } from '@cairn/db/client';
import { widgets } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';

/**
 * The application's greeting, in every channel (the widget's opening line, Telegram's /start, the
 * reply to "hi"): the widget's when the owner wrote one, else one naming the application.
 */
export async function greetingOf(db: Db, applicationId: number, name: string): Promise<string> {
  const [widget] = await db
    .select({ settings: widgets.settings })
    .from(widgets)
    .where(eq(widgets.applicationId, applicationId));
  const greeting = widget?.settings.greeting;
  if (typeof greeting === 'string' && greeting.trim() && greeting !== DEFAULT_WIDGET_SETTINGS.greeting)
    return greeting.trim();
  return `Hi! I am ${name}. Ask me anything: I answer from my knowledge and tell you my sources.`;
}
