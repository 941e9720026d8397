export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** A fixed `Message-ID` (`<…@host>`), so a copy sent again after a crash can be dropped. */
  messageId?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Wraps at 72 columns: with short lines and plain ASCII the text part is sent unencoded (7bit). */
const wrap = (text: string) => text.replace(/(.{1,72})(\s+|$)/g, '$1\n').trimEnd();

/** One layout for every message: a heading, paragraphs, an optional button, a footer. */
export function render(opts: {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer: string;
}): RenderedMail {
  const text = [
    ...opts.paragraphs.map(wrap),
    ...(opts.action ? [`${opts.action.label}:\n${opts.action.url}`] : []),
    '--',
    wrap(opts.footer),
  ].join('\n\n');
  const button = opts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.action.url)}" style="background:#18181b;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(opts.action.label)}</a></p>
<p style="color:#52525b;font-size:13px">If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(opts.action.url)}">${escapeHtml(opts.action.url)}</a></p>`
    : '';
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(opts.subject)}</h1>
${opts.paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${button}
<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0"><p style="color:#71717a;font-size:12px">${escapeHtml(opts.footer)}</p>
</body></html>`;
  return { subject: opts.subject, text, html };
}

export const FOOTER =
  'Cairn - chat assistants over your own knowledge. You received this because of an action on your account.';

export const verifyEmailMail = (url: string) =>
  render({
    subject: 'Verify your e-mail address',
    paragraphs: [
      'Welcome to Cairn. Confirm that this address is yours to finish creating your account.',
      'The link works once and expires in 24 hours. If you did not sign up, ignore this message.',
    ],
    action: { label: 'Verify e-mail address', url },
    footer: FOOTER,
  });

/** To the owner of an address someone tried to register again (registration does not say it exists). */
export const accountExistsMail = (resetUrl: string) =>
  render({
    subject: 'Someone tried to create an account with your address',
    paragraphs: [
      'Someone (perhaps you) tried to create a Cairn account with this e-mail address, which already has one. Nothing was changed.',
      'If it was you and you forgot your password, choose a new one below. The link works once and expires in 1 hour. Otherwise, ignore this message.',
    ],
    action: { label: 'Choose a new password', url: resetUrl },
    footer: FOOTER,
  });

export const resetPasswordMail = (url: string) =>
  render({
    subject: 'Reset your password',
    paragraphs: [
      'Someone (hopefully you) asked to reset the password of your Cairn account.',
      'The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url },
    footer: FOOTER,
  });

export const passwordChangedMail = (loginUrl: string) =>
  render({
    subject: 'Your password was changed',
    paragraphs: [
      'The password of your Cairn account was just changed, and every session was signed out.',
      'If this was not you, reset your password right away and check your account.',
    ],
    action: { label: 'Sign in', url: loginUrl },
    footer: FOOTER,
  });
