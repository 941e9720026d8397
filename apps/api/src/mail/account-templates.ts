import { FOOTER, render } from './templates.ts';

/** Mail of the account page: password and e-mail changes, account deletion. */

export const passwordChangedHereMail = (loginUrl: string) =>
  render({
    subject: 'Your password was changed',
    paragraphs: [
      'The password of your Cairn account was just changed from its account page. Every other session was signed out, and password reset links sent before are void.',
      'If this was not you, reset your password right away and check your account.',
    ],
    action: { label: 'Sign in', url: loginUrl },
    footer: FOOTER,
  });

export const confirmNewEmailMail = (url: string) =>
  render({
    subject: 'Confirm your new e-mail address',
    paragraphs: [
      'Someone signed in to a Cairn account asked to use this address for it. Confirm that this address is yours to make the change.',
      'The link works once and expires in 24 hours. If you did not ask for this, ignore this message: nothing changes.',
    ],
    action: { label: 'Confirm e-mail address', url },
    footer: FOOTER,
  });

/** Sent to the asked-for address when it already has an account: the asker learns nothing. */
export const newEmailInUseMail = (loginUrl: string) =>
  render({
    subject: 'This address already has a Cairn account',
    paragraphs: [
      'Someone signed in to a Cairn account asked to use this address for it, but this address already belongs to an account, so nothing changed.',
      'If that was you, sign in with this address instead. If not, ignore this message.',
    ],
    action: { label: 'Sign in', url: loginUrl },
    footer: FOOTER,
  });

export const emailChangeRequestedMail = (newEmail: string) =>
  render({
    subject: 'A change of your e-mail address was requested',
    paragraphs: [
      `Someone signed in to your Cairn account asked to use ${newEmail} as its address. It changes only when that address confirms through the link sent to it.`,
      'If this was not you, change your password now: that cancels the change and signs every other session out.',
    ],
    footer: FOOTER,
  });

export const emailChangedMail = (newEmail: string) =>
  render({
    subject: 'Your e-mail address was changed',
    paragraphs: [
      `Your Cairn account now uses ${newEmail}. Messages about it go there, and you sign in with it.`,
      'If this was not you, contact whoever runs this Cairn instance at once.',
    ],
    footer: FOOTER,
  });

export const accountDeletedMail = () =>
  render({
    subject: 'Your Cairn account was deleted',
    paragraphs: [
      'Your Cairn account was deleted, with its applications, knowledge, conversations, keys, webhooks and integrations. This address can register again.',
    ],
    footer: FOOTER,
  });
