import type { RenderedMail } from '../../mail/templates.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Tells the owner Cairn turned a webhook off (410 Gone, or five days of failures). Written in the
 * layout of mail/templates.ts (whose `render` is private to that file).
 */
export function webhookDisabledMail(opts: {
  webhookUrl: string;
  reason: string;
  settingsUrl: string;
}): RenderedMail {
  const subject = 'A webhook was disabled';
  const paragraphs = [
    `Cairn stopped sending events to ${opts.webhookUrl}.`,
    opts.reason,
    'Events that happen while it is disabled are not sent. When the receiver works again, enable the webhook in your integration settings; you can resend failed deliveries from its delivery log.',
  ];
  const footer =
    'Cairn - chat assistants over your own knowledge. You received this because of a webhook on your account.';
  const text = [...paragraphs, `Integration settings:\n${opts.settingsUrl}`, '--', footer].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${escapeHtml(opts.settingsUrl)}" style="background:#18181b;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">Open integration settings</a></p>
<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0"><p style="color:#71717a;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject, text, html };
}
