import { useEffect, useState } from 'react';
import { BellRingIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { normalizeError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { notificationsApi } from './notifications-api';

const WORKER = '/push-sw.js';

type PushState = 'checking' | 'unsupported' | 'denied' | 'dismissed' | 'off' | 'on' | 'busy';

/** `applicationServerKey` wants the raw key bytes; the API gives base64url. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const supported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

const MESSAGES: Partial<Record<PushState, string>> = {
  unsupported: 'This browser cannot receive push notifications.',
  denied:
    'Your browser blocks notifications from this site. Allow them in the site settings (the icon at the left of the address bar), then turn push on again.',
  dismissed: 'The browser did not get an answer. Turn push on again to be asked once more.',
  off: 'Push is off in this browser.',
  on: 'This browser receives push notifications for the events set to “Browser push”.',
};

/** The permission flow for Web Push in this browser: ask, subscribe, tell the API; or turn it off. */
export function PushControl({ publicKey }: { publicKey: string }) {
  const [state, setState] = useState<PushState>('checking');

  useEffect(() => {
    if (!supported()) return setState('unsupported');
    if (Notification.permission === 'denied') return setState('denied');
    currentSubscription().then(
      (sub) => setState(sub ? 'on' : 'off'),
      () => setState('off'),
    );
  }, []);

  const turnOn = async () => {
    setState('busy');
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return setState(permission === 'denied' ? 'denied' : 'dismissed');
      const registration = await navigator.serviceWorker.register(WORKER);
      await navigator.serviceWorker.ready;
      const sub =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(publicKey),
        }));
      await notificationsApi.subscribePush(sub.toJSON());
      setState('on');
      toast.success('Browser push is on');
    } catch (error) {
      setState('off');
      toast.error(
        error instanceof DOMException
          ? `The browser could not subscribe: ${error.message}`
          : normalizeError(error).message,
      );
    }
  };

  const turnOff = async () => {
    setState('busy');
    try {
      const sub = await currentSubscription();
      if (sub) {
        await notificationsApi.unsubscribePush(sub.endpoint);
        await sub.unsubscribe();
      }
      setState('off');
    } catch (error) {
      setState('on');
      toast.error(normalizeError(error).message);
    }
  };

  const test = async () => {
    try {
      const sent = await notificationsApi.sendTest('push');
      toast.success(`Test push sent to ${sent.sent_to}`);
    } catch (error) {
      toast.error(normalizeError(error).message);
    }
  };

  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground" role="status">
        {state === 'checking' || state === 'busy' ? 'Checking this browser…' : MESSAGES[state]}
      </p>
      <div className="flex flex-wrap gap-3">
        {state === 'on' ? (
          <>
            <Button type="button" variant="outline" onClick={() => void turnOff()}>
              Turn off push in this browser
            </Button>
            <Button type="button" variant="outline" onClick={() => void test()}>
              <BellRingIcon aria-hidden="true" />
              Send me a test push
            </Button>
          </>
        ) : state === 'unsupported' ? null : (
          <Button
            type="button"
            variant="outline"
            disabled={state === 'checking' || state === 'busy'}
            onClick={() => void turnOn()}
          >
            Turn on push in this browser
          </Button>
        )}
      </div>
    </div>
  );
}
