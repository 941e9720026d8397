import { randomBytes } from 'node:crypto';
import type { ApiCall } from './api-call.ts';
import type { Mail } from './mail.ts';
import type { SignedUp } from './sign-up.ts';

/**
 * What a test gets of a running Cairn, whether the app runs in its own process (`startTestApp`)
 * or as a server process (`startRunningServer`, the e2e's and the benches' server).
 */
export interface RunningCairn {
  url: string;
  call: ApiCall;
  /** E-mails written to the outbox, oldest first. */
  outbox(): Mail[];
  /**
   * The newest e-mail to `to`, waiting for it; with `subject`, waits until the newest one has it
   * (account mail is sent by a job, after the response).
   */
  lastMail(to: string, subject?: string): Promise<Mail>;
  /** Registers, verifies through the e-mailed link and logs in, as a person would. */
  signUp(email?: string, password?: string): Promise<SignedUp>;
}

/** A new address for a test's account. */
export const newTestEmail = (prefix = 'user') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
