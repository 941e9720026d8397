import {
  DIGEST_FREQUENCIES,
  EMAIL_DELAY_MAX_MINUTES,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type TNotificationEvent,
} from '@cairn/contracts/notification-rules';
import type { TNotificationChannel, TNotificationProfile } from '@cairn/contracts/notifications';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { BellIcon as InAppIcon, MailIcon, MessageSquareIcon as SlackIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { fieldErrorsOf, normalizeError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/utils';
import { NativeSelect } from '../models/native-select';
import { notificationsApi } from './notifications-api';
import { PushControl } from './push-control';

const CHANNELS: Array<{ id: TNotificationChannel; label: string }> = [
  { id: 'email', label: 'E-mail' },
  { id: 'push', label: 'Push' },
  { id: 'slack', label: 'Slack' },
  { id: 'in_app', label: 'In app' },
];

const DIGEST_LABELS: Record<(typeof DIGEST_FREQUENCIES)[number], string> = {
  off: 'Off',
  daily: 'Daily',
  weekly: 'Weekly (Mondays)',
};

/** The browser's own zone, or UTC where the browser does not say. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

function sectionTitle(id: string, text: string) {
  return (
    <h2 id={id} className="text-lg font-semibold">
      {text}
    </h2>
  );
}

/** The notification profile: event × channel matrix, e-mail delay, quiet hours, digest, tests. */
export function ProfileForm({
  initial,
  slackIntegrations,
  pushKey,
}: {
  initial: TNotificationProfile;
  /** The server's VAPID public key, to subscribe this browser. */
  pushKey: string;
  /** The owner's Slack integrations: where the Slack channel can post. */
  slackIntegrations: Array<{ uuid: string; name: string }>;
}) {
  const [profile, setProfile] = useState(initial);
  const [quietOn, setQuietOn] = useState(initial.quiet_hours !== null);
  const [quiet, setQuiet] = useState(
    initial.quiet_hours ?? { start: '22:00', end: '07:00', time_zone: 'UTC', urgent_handoff: true },
  );
  const [slack, setSlack] = useState(
    initial.slack ?? { integration_uuid: slackIntegrations[0]?.uuid ?? '', channel: '' },
  );
  const slackOn = slack.integration_uuid !== '' && slack.channel.trim() !== '';
  // Slack once a bot and channel are chosen below.
  const available = (c: TNotificationChannel) => c !== 'slack' || slackOn;
  const [zones, setZones] = useState<string[]>([...new Set([quiet.time_zone, initial.time_zone])]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const ids = useId();

  // Only the browser knows its zone and the list of zones: filled in after hydration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render in the browser
  useEffect(() => {
    const all = Intl.supportedValuesOf('timeZone');
    if (initial.quiet_hours === null) setQuiet((q) => ({ ...q, time_zone: browserTimeZone() }));
    // A digest never set up starts on the browser's zone too.
    if (initial.digest === 'off' && initial.time_zone === 'UTC')
      setProfile((p) => ({ ...p, time_zone: browserTimeZone() }));
    setZones(all.includes('UTC') ? all : ['UTC', ...all]);
  }, []);

  const toggle = (event: TNotificationEvent, channel: TNotificationChannel, on: boolean) =>
    setProfile((p) => {
      const current = p.events[event].filter((c) => c !== channel);
      return { ...p, events: { ...p.events, [event]: on ? [...current, channel] : current } };
    });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      const saved = await notificationsApi.saveProfile({
        ...profile,
        quiet_hours: quietOn ? quiet : null,
        slack: slackOn ? slack : null,
      });
      setProfile(saved);
      toast.success('Notification profile saved');
    } catch (error) {
      const normalized = normalizeError(error);
      const fields = fieldErrorsOf(normalized);
      setErrors(fields);
      toast.error(Object.keys(fields).length ? 'Check the highlighted fields' : normalized.message);
    } finally {
      setSaving(false);
    }
  };

  const hours = useMemo(() => Array.from({ length: 24 }, (_, h) => h), []);

  return (
    <form onSubmit={save} className="grid gap-10" noValidate>
      <section aria-labelledby={`${ids}-matrix`} className="grid gap-3">
        {sectionTitle(`${ids}-matrix`, 'What reaches you, and where')}
        <p className="text-sm text-muted-foreground">
          Only what you tick reaches you: an event with nothing ticked is not told anywhere. In app is the
          bell. Push reaches the browsers where you turn it on below; Slack, once you choose a channel.
          Questions the knowledge did not cover are always listed under Needs attention.
        </p>
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-sm">
            <caption className="sr-only">Channels for each event</caption>
            <thead className="bg-muted/50">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  Event
                </th>
                {CHANNELS.map((c) => (
                  <th
                    key={c.id}
                    scope="col"
                    // Slack without a channel takes no room on a phone; the note above says so.
                    className={cn(
                      'px-2 py-2 text-center font-medium whitespace-nowrap',
                      !available(c.id) && 'hidden sm:table-cell',
                    )}
                  >
                    {c.label}
                    {c.id === 'slack' && !slackOn ? (
                      <span className="block text-xs font-normal text-muted-foreground">
                        choose a channel
                      </span>
                    ) : null}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_EVENTS.map((event) => (
                <tr key={event} className="border-t">
                  <th scope="row" className="px-3 py-2 text-left font-normal">
                    {NOTIFICATION_EVENT_LABELS[event]}
                  </th>
                  {CHANNELS.map((c) => {
                    const checked = profile.events[event].includes(c.id);
                    return (
                      <td
                        key={c.id}
                        className={cn('px-2 py-2 text-center', !available(c.id) && 'hidden sm:table-cell')}
                      >
                        <input
                          type="checkbox"
                          className="size-4 accent-primary disabled:opacity-50"
                          aria-label={`${NOTIFICATION_EVENT_LABELS[event]}: ${c.label}`}
                          checked={available(c.id) ? checked : false}
                          disabled={!available(c.id)}
                          onChange={(e) => toggle(event, c.id, e.target.checked)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby={`${ids}-email`} className="grid gap-4 sm:max-w-md">
        {sectionTitle(`${ids}-email`, 'E-mail')}
        <Field
          id={`${ids}-delay`}
          label="Wait before e-mailing (minutes)"
          description="Nothing is sent if you open the conversation in Cairn before then. 0 sends at once."
          error={errors.email_delay_minutes}
        >
          {(aria) => (
            <Input
              {...aria}
              type="number"
              inputMode="numeric"
              min={0}
              max={EMAIL_DELAY_MAX_MINUTES}
              value={Number.isNaN(profile.email_delay_minutes) ? '' : profile.email_delay_minutes}
              onChange={(e) => setProfile((p) => ({ ...p, email_delay_minutes: e.target.valueAsNumber }))}
            />
          )}
        </Field>
      </section>

      <section aria-labelledby={`${ids}-push`} className="grid gap-4 sm:max-w-md">
        {sectionTitle(`${ids}-push`, 'Push in this browser')}
        <PushControl publicKey={pushKey} />
      </section>

      <section aria-labelledby={`${ids}-slack`} className="grid gap-4 sm:max-w-md">
        {sectionTitle(`${ids}-slack`, 'Slack')}
        {slackIntegrations.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Connect Slack on the integrations page to be notified in a Slack channel.
          </p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Posted at once (no delay, no quiet hours) by your Slack bot; invite the bot to the channel.
            </p>
            <div className="grid grid-cols-2 gap-4">
              <Field id={`${ids}-slack-bot`} label="Slack bot" error={errors['slack.integration_uuid']}>
                {(aria) => (
                  <NativeSelect
                    {...aria}
                    value={slack.integration_uuid}
                    onChange={(e) => setSlack((t) => ({ ...t, integration_uuid: e.target.value }))}
                  >
                    {slackIntegrations.map((i) => (
                      <option key={i.uuid} value={i.uuid}>
                        {i.name}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </Field>
              <Field id={`${ids}-slack-channel`} label="Channel" error={errors['slack.channel']}>
                {(aria) => (
                  <Input
                    {...aria}
                    placeholder="#support"
                    value={slack.channel}
                    onChange={(e) => setSlack((t) => ({ ...t, channel: e.target.value }))}
                  />
                )}
              </Field>
            </div>
          </>
        )}
      </section>

      <section aria-labelledby={`${ids}-quiet`} className="grid gap-4 sm:max-w-md">
        {sectionTitle(`${ids}-quiet`, 'Quiet hours')}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={quietOn}
            onChange={(e) => setQuietOn(e.target.checked)}
          />
          Hold e-mails during quiet hours, and push notifications too: they go out when the quiet hours end
        </label>
        {quietOn ? (
          <>
            <div className="grid grid-cols-2 gap-4">
              <Field id={`${ids}-start`} label="From" error={errors['quiet_hours.start']}>
                {(aria) => (
                  <Input
                    {...aria}
                    type="time"
                    value={quiet.start}
                    onChange={(e) => setQuiet((q) => ({ ...q, start: e.target.value }))}
                  />
                )}
              </Field>
              <Field id={`${ids}-end`} label="Until" error={errors['quiet_hours.end']}>
                {(aria) => (
                  <Input
                    {...aria}
                    type="time"
                    value={quiet.end}
                    onChange={(e) => setQuiet((q) => ({ ...q, end: e.target.value }))}
                  />
                )}
              </Field>
            </div>
            <Field id={`${ids}-zone`} label="Time zone" error={errors['quiet_hours.time_zone']}>
              {(aria) => (
                <NativeSelect
                  {...aria}
                  value={quiet.time_zone}
                  onChange={(e) => setQuiet((q) => ({ ...q, time_zone: e.target.value }))}
                >
                  <ZoneOptions zones={zones} />
                </NativeSelect>
              )}
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={quiet.urgent_handoff}
                onChange={(e) => setQuiet((q) => ({ ...q, urgent_handoff: e.target.checked }))}
              />
              A visitor asking for a person is urgent: e-mail and push it even during quiet hours
            </label>
          </>
        ) : null}
      </section>

      <section aria-labelledby={`${ids}-digest`} className="grid gap-4 sm:max-w-md">
        {sectionTitle(`${ids}-digest`, 'Digest')}
        <p className="text-sm text-muted-foreground">
          An e-mail with the conversations, unanswered questions, feedback and failures of the day or week,
          per application. Nothing is sent when nothing happened.
        </p>
        <div className="grid grid-cols-2 gap-4">
          <Field id={`${ids}-digest-frequency`} label="Frequency" error={errors.digest}>
            {(aria) => (
              <NativeSelect
                {...aria}
                value={profile.digest}
                onChange={(e) =>
                  setProfile((p) => ({ ...p, digest: e.target.value as TNotificationProfile['digest'] }))
                }
              >
                {DIGEST_FREQUENCIES.map((d) => (
                  <option key={d} value={d}>
                    {DIGEST_LABELS[d]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field id={`${ids}-digest-hour`} label="At" error={errors.digest_hour}>
            {(aria) => (
              <NativeSelect
                {...aria}
                value={profile.digest_hour}
                disabled={profile.digest === 'off'}
                onChange={(e) => setProfile((p) => ({ ...p, digest_hour: Number(e.target.value) }))}
              >
                {hours.map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </div>
        <Field id={`${ids}-digest-zone`} label="Digest time zone" error={errors.time_zone}>
          {(aria) => (
            <NativeSelect
              {...aria}
              value={profile.time_zone}
              disabled={profile.digest === 'off'}
              onChange={(e) => setProfile((p) => ({ ...p, time_zone: e.target.value }))}
            >
              <ZoneOptions zones={zones} />
            </NativeSelect>
          )}
        </Field>
      </section>

      <div className="flex flex-wrap items-center gap-3 border-t pt-6">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save profile'}
        </Button>
        <TestButton channel="email" />
        <TestButton channel="in_app" />
        {initial.slack ? <TestButton channel="slack" /> : null}
      </div>
    </form>
  );
}

function ZoneOptions({ zones }: { zones: string[] }) {
  return zones.map((z) => (
    <option key={z} value={z}>
      {z.replaceAll('_', ' ')}
    </option>
  ));
}

/** What each "send me a test" button says (push has its own, beside the browser's permission). */
const TESTS = {
  email: {
    icon: MailIcon,
    label: 'Send me a test e-mail',
    sent: (to: string) => `Test e-mail sent to ${to}`,
  },
  in_app: {
    icon: InAppIcon,
    label: 'Send me a test notification',
    sent: () => 'Test notification sent: see the bell',
  },
  slack: {
    icon: SlackIcon,
    label: 'Send a test to Slack',
    sent: () => 'Test message posted to your Slack channel',
  },
} as const;

/** "Send me a test" on one channel: now, whatever the delay and quiet hours say. */
function TestButton({ channel }: { channel: keyof typeof TESTS }) {
  const [busy, setBusy] = useState(false);
  const { icon: Icon, label, sent } = TESTS[channel];
  const send = async () => {
    setBusy(true);
    try {
      toast.success(sent((await notificationsApi.sendTest(channel)).sent_to));
    } catch (error) {
      toast.error(normalizeError(error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="outline" disabled={busy} onClick={() => void send()}>
      <Icon aria-hidden="true" />
      {label}
    </Button>
  );
}
