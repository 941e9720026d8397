import type { DigestGroup } from './digest.ts';
import { escapeHtml, type MailWithHeaders, oneClickHeaders } from './notification-mail.ts';

/** Items listed per application; the rest are counted. */
const LISTED = 10;

/** The digest: per application, what happened, each with its link; one-click unsubscribe turns the digest off. */
export function digestMail(opts: {
  frequency: 'daily' | 'weekly';
  groups: DigestGroup[];
  settingsUrl: string;
  unsubscribeUrl: string;
}): MailWithHeaders {
  const total = opts.groups.reduce((n, g) => n + g.items.length, 0);
  const subject = `Your ${opts.frequency} Cairn digest: ${total} ${total === 1 ? 'thing' : 'things'} to look at`;
  const footer = `You receive this because the ${opts.frequency} digest is on in your Cairn notification profile.`;
  const text = [
    ...opts.groups.map((g) =>
      [
        `${g.application}:`,
        ...g.items.slice(0, LISTED).map((i) => `- ${i.title}${i.url ? `\n  ${i.url}` : ''}`),
        ...(g.items.length > LISTED ? [`… and ${g.items.length - LISTED} more`] : []),
      ].join('\n'),
    ),
    `Notification settings:\n${opts.settingsUrl}`,
    '--',
    footer,
    `Stop the digest:\n${opts.unsubscribeUrl}`,
  ].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
${opts.groups
  .map(
    (g) => `<h2 style="font-size:16px;margin-top:24px">${escapeHtml(g.application)}</h2>
<ul style="padding-left:20px;line-height:1.5">${g.items
      .slice(0, LISTED)
      .map(
        (i) =>
          `<li>${i.url ? `<a href="${escapeHtml(i.url)}">${escapeHtml(i.title)}</a>` : escapeHtml(i.title)}</li>`,
      )
      .join('')}${g.items.length > LISTED ? `<li>… and ${g.items.length - LISTED} more</li>` : ''}</ul>`,
  )
  .join('\n')}
<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0"><p style="color:#71717a;font-size:12px">${escapeHtml(footer)} <a href="${escapeHtml(opts.settingsUrl)}" style="color:#71717a">Notification settings</a> · <a href="${escapeHtml(opts.unsubscribeUrl)}" style="color:#71717a">Stop the digest</a></p>
</body></html>`;
  return {
    subject,
    text,
    html,
    headers: oneClickHeaders(opts.unsubscribeUrl),
  };
}
