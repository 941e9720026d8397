import type { RenderedMail } from '../../mail/templates.ts';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** RFC 8058: mail clients show an "Unsubscribe" button that POSTs to `url` directly. */
export const oneClickHeaders = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/** A rendered mail with extra headers (nodemailer takes `headers` beside subject, text and html). */
export type MailWithHeaders = RenderedMail & { headers: Record<string, string> };

/**
 * One notification e-mail, in the layout of mail/templates.ts, with RFC 8058 one-click unsubscribe
 * headers: mail clients show an "Unsubscribe" button that POSTs to `unsubscribeUrl` directly.
 */
export function notificationMail(opts: {
  title: string;
  body: string;
  url: string | null;
  eventLabel: string;
  unsubscribeUrl: string;
}): MailWithHeaders {
  const subject = opts.title;
  const paragraphs = opts.body ? [opts.body] : [];
  const footer = `You receive this because "${opts.eventLabel}" is set to e-mail in your Cairn notification profile.`;
  const text = [
    ...paragraphs,
    ...(opts.url ? [`Open in Cairn:\n${opts.url}`] : []),
    '--',
    footer,
    `Stop these e-mails:\n${opts.unsubscribeUrl}`,
  ].join('\n\n');
  const button = opts.url
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.url)}" style="background:#18181b;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">Open in Cairn</a></p>`
    : '';
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5;white-space:pre-wrap">${escapeHtml(p)}</p>`).join('\n')}
${button}
<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0"><p style="color:#71717a;font-size:12px">${escapeHtml(footer)} <a href="${escapeHtml(opts.unsubscribeUrl)}" style="color:#71717a">Stop these e-mails</a></p>
</body></html>`;
  return {
    subject,
    text,
    html,
    headers: oneClickHeaders(opts.unsubscribeUrl),
  };
}
