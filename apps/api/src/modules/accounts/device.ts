import Bowser from 'bowser';

/** "Chrome on macOS", "Firefox on Android", "curl": what a person recognises in a list of sessions. */
export function describeDevice(userAgent: string | undefined): string {
  const ua = userAgent?.trim().slice(0, 512);
  if (!ua) return 'Unknown device';
  const { browser, os } = Bowser.parse(ua);
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  if (browser.name || os.name) return (browser.name || os.name) as string;
  // Not a browser (curl, an HTTP library): its product token, without the version.
  return /^[\w.-]{1,40}/.exec(ua)?.[0] ?? 'Unknown device';
}
