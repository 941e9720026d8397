import { describe, expect, it } from 'vitest';
import { slackSignature, verifySlackSignature } from './slack-signature.ts';

/** Slack's published example ("Verifying requests from Slack"). */
const DOC = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const at = Number(DOC.timestamp);

describe("Slack's v0 signature", () => {
  it("signs Slack's published example as Slack does", () => {
    expect(slackSignature(DOC.secret, DOC.timestamp, DOC.body)).toBe(DOC.signature);
    expect(
      verifySlackSignature(
        DOC.secret,
        { timestamp: DOC.timestamp, signature: DOC.signature },
        DOC.body,
        at + 10,
      ),
    ).toEqual({ ok: true });
  });

  it('refuses it once more than five minutes old, or from more than five minutes ahead', () => {
    const headers = { timestamp: DOC.timestamp, signature: DOC.signature };
    expect(verifySlackSignature(DOC.secret, headers, DOC.body, at + 300).ok).toBe(true);
    expect(verifySlackSignature(DOC.secret, headers, DOC.body, at + 301)).toEqual({
      ok: false,
      reason: 'The request is too old (or from the future).',
    });
    expect(verifySlackSignature(DOC.secret, headers, DOC.body, at - 301).ok).toBe(false);
  });

  it('refuses a changed body, timestamp, signature or secret, and unsigned or malformed headers', () => {
    const check = (
      secret: string,
      timestamp: string | undefined,
      signature: string | undefined,
      body: string,
    ) => verifySlackSignature(secret, { timestamp, signature }, body, at).ok;
    expect(check(DOC.secret, DOC.timestamp, DOC.signature, `${DOC.body}x`)).toBe(false);
    expect(check(DOC.secret, String(at + 1), DOC.signature, DOC.body)).toBe(false);
    expect(check(DOC.secret, DOC.timestamp, DOC.signature.replace(/.$/, '4'), DOC.body)).toBe(false);
    expect(check(DOC.secret.replace('8', '9'), DOC.timestamp, DOC.signature, DOC.body)).toBe(false);
    expect(check(DOC.secret, undefined, DOC.signature, DOC.body)).toBe(false);
    expect(check(DOC.secret, DOC.timestamp, undefined, DOC.body)).toBe(false);
    expect(check(DOC.secret, '1e9', DOC.signature, DOC.body)).toBe(false);
    expect(check(DOC.secret, DOC.timestamp, 'v0=short', DOC.body)).toBe(false);
  });
});
