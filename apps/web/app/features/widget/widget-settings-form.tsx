import type { TWidgetSettings } from '@cairn/contracts/widget';
import { WIDGET_LIMITS } from '@cairn/contracts/widget-limits';
import { toNestErrors } from '@hookform/resolvers';
import { type ReactNode, useEffect, useRef } from 'react';
import { type FieldError, type Path, type Resolver, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useBlocker, useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { CheckIcon, CircleAlertIcon, CircleDotIcon, PlusIcon, XIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/utils';
import { RelativeTime } from '../chat/relative-time';
import { EmbedSnippet } from './embed-snippet';
import { OriginsEditor } from './origins-editor';
import { RefusedOrigins } from './refused-origins';
import { SwitchField } from './switch-field';
import type { WidgetActionData } from './widget.server';
import type { TWidgetFormInput, TWidgetFormOutput } from './widget-form';
import { checkWidgetForm } from './widget-form-check';
import { formPathOf, formValuesOf, previewConfigOf, updateRequestOf } from './widget-form-values';
import { WidgetPreview } from './widget-preview';

const WIDGET_FETCHER = 'widget-settings';
/**
 * The form's check without zod (decision 091), its errors shaped as the zod resolver shapes them:
 * the first message of each field, nested by path.
 */
const resolver: Resolver<TWidgetFormInput, unknown, TWidgetFormOutput> = (values, _context, options) => {
  const check = checkWidgetForm(values);
  if (check.ok) return { values: check.data, errors: {} };
  const errors: Record<string, FieldError> = {};
  for (const { path, message } of check.issues) errors[path.join('.')] ??= { type: 'invalid', message };
  return { values: {}, errors: toNestErrors(errors, options) };
};

/** One titled group of settings. */
function Group({
  id,
  title,
  description,
  children,
  className,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn('grid min-w-0 gap-5 rounded-xl border p-4 sm:p-6', className)}
    >
      <div className="grid gap-1">
        <h3 id={id} className="font-semibold">
          {title}
        </h3>
        {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/**
 * The owner's widget settings: where it may show (on/off, allowed sites), the code to paste, how
 * it looks (with the real widget as a live preview of unsaved changes), limits and human takeover.
 * Saved as a whole; the bar at the bottom says whether there is anything unsaved, and leaving the
 * page with unsaved changes asks first.
 */
export function WidgetSettingsForm({ widget, previewSrc }: { widget: TWidgetSettings; previewSrc: string }) {
  const fetcher = useFetcher<WidgetActionData>({ key: WIDGET_FETCHER });
  const form = useForm<TWidgetFormInput, unknown, TWidgetFormOutput>({
    resolver,
    defaultValues: formValuesOf(widget),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const {
    register,
    control,
    setValue,
    setError,
    setFocus,
    reset,
    formState: { errors, isDirty, submitCount },
  } = form;
  const errorAt = (path: Path<TWidgetFormInput>) => form.getFieldState(path, form.formState).error?.message;
  const values = useWatch({ control }) as TWidgetFormInput;
  const busy = fetcher.state !== 'idle';
  const savedAt = useRef(widget.updated_at);

  // The save's answer: the stored settings become the form's new starting point, or the API's
  // messages go on their fields (the first one focused).
  const answered = useRef<WidgetActionData | undefined>(undefined);
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== 'idle' || answered.current === result) return;
    answered.current = result;
    if (result.ok) {
      savedAt.current = result.widget.updated_at;
      reset(formValuesOf(result.widget));
      toast.success('Widget settings saved');
      return;
    }
    const fields = Object.entries(result.errors.fieldErrors);
    for (const [field, message] of fields) {
      setError(formPathOf(field) as Path<TWidgetFormInput>, { type: 'server', message });
    }
    const first = fields[0]?.[0];
    if (first) {
      const path = formPathOf(first);
      // An origin's row has no input of its own: the "add" box is where the fixing starts.
      if (path.startsWith('allowed_origins.')) document.getElementById('widget-origin-new')?.focus();
      else setFocus(path as Path<TWidgetFormInput>);
    }
  }, [fetcher.data, fetcher.state, reset, setError, setFocus]);

  // Closing the tab or reloading with unsaved changes: the browser asks.
  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);
  // Leaving for another page of the app: we ask.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname,
  );

  const questions = useFieldArray({ control, name: 'suggested_questions' });
  // Invalid fields are marked and the first one focused; the bar below says nothing was saved.
  const onSubmit = form.handleSubmit((output) => {
    fetcher.submit(updateRequestOf(output) as Parameters<typeof fetcher.submit>[0], {
      method: 'post',
      encType: 'application/json',
    });
  });
  const invalid = Object.keys(errors).length > 0;
  const formError = fetcher.data && !fetcher.data.ok && !busy ? fetcher.data.errors.formError : null;
  const colour = /^#[0-9a-f]{6}$/i.test(values.accent_color ?? '') ? values.accent_color : '#2563eb';
  const takeoverOn = values.takeover?.enabled ?? false;

  return (
    <form onSubmit={onSubmit} noValidate className="grid min-w-0 gap-6" aria-label="Widget settings">
      <Group
        id="widget-availability"
        title="Where it shows"
        description="Deny by default: the widget answers nowhere until it is on and your site is in the list."
      >
        <SwitchField
          id="widget-enabled"
          label="Widget on"
          checked={values.enabled ?? false}
          onCheckedChange={(checked) => setValue('enabled', checked, { shouldDirty: true })}
          description={
            values.enabled
              ? 'Visitors of the sites below see a chat button and get answers from this application’s knowledge. Turning it off removes the button everywhere and stops chats already open.'
              : 'Off: the chat button shows on no site and visitors cannot ask anything. Turn it on to let the sites below show it.'
          }
        />
        <OriginsEditor control={control} errors={errors.allowed_origins} />
        <RefusedOrigins refused={widget.refused_origins} />
      </Group>

      <Group
        id="widget-embed"
        title="Add it to your site"
        description={
          <>
            Paste this into the HTML of every page that should show the chat button, just before{' '}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">&lt;/body&gt;</code>.
          </>
        }
      >
        <EmbedSnippet snippet={widget.embed_snippet} />
      </Group>

      <Group
        id="widget-appearance"
        title="Appearance"
        description="What visitors see. The preview shows your changes before you save them."
      >
        <div className="grid min-w-0 gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="grid min-w-0 content-start gap-5">
            <Field
              id="widget-chat-title"
              label="Title"
              description="At the top of the chat, and the chat button’s name."
              error={errorAt('title')}
            >
              {(aria) => <Input {...aria} maxLength={WIDGET_LIMITS.titleLength} {...register('title')} />}
            </Field>
            <Field
              id="widget-greeting"
              label="Greeting"
              description="The first message of every conversation."
              error={errorAt('greeting')}
            >
              {(aria) => (
                <Textarea
                  {...aria}
                  rows={3}
                  maxLength={WIDGET_LIMITS.greetingLength}
                  {...register('greeting')}
                />
              )}
            </Field>
            <fieldset className="grid min-w-0 gap-2">
              <legend className="font-medium text-sm">Suggested questions</legend>
              <p className="text-muted-foreground text-sm">
                Offered under the greeting until the visitor asks something. Up to{' '}
                {WIDGET_LIMITS.suggestedQuestions}.
              </p>
              {questions.fields.length > 0 ? (
                <ol className="grid min-w-0 gap-2">
                  {questions.fields.map((field, index) => {
                    const error = errorAt(`suggested_questions.${index}.text`);
                    const id = `widget-question-${index}`;
                    return (
                      <li key={field.id} className="grid min-w-0 gap-1">
                        <div className="flex min-w-0 items-center gap-2">
                          <label htmlFor={id} className="sr-only">
                            Question {index + 1}
                          </label>
                          <Input
                            id={id}
                            maxLength={WIDGET_LIMITS.suggestedQuestionLength}
                            aria-invalid={Boolean(error)}
                            aria-describedby={error ? `${id}-error` : undefined}
                            {...register(`suggested_questions.${index}.text`)}
                          />
                          <Button
                            variant="ghost"
                            size="icon"
                            className="shrink-0"
                            aria-label={`Remove question ${index + 1}`}
                            onClick={() => questions.remove(index)}
                          >
                            <XIcon aria-hidden="true" />
                          </Button>
                        </div>
                        {error ? (
                          <p id={`${id}-error`} className="text-destructive text-sm" data-field-error>
                            {error}
                          </p>
                        ) : null}
                      </li>
                    );
                  })}
                </ol>
              ) : null}
              <Button
                variant="outline"
                size="sm"
                className="w-fit"
                disabled={questions.fields.length >= WIDGET_LIMITS.suggestedQuestions}
                onClick={() => questions.append({ text: '' })}
              >
                <PlusIcon aria-hidden="true" />
                Add a question
              </Button>
            </fieldset>
            <Field
              id="widget-accent"
              label="Accent colour"
              description="The chat button, your visitor’s messages and links. A hex colour such as #2563eb."
              error={errorAt('accent_color')}
            >
              {(aria) => (
                <div className="flex items-center gap-2">
                  <input
                    type="color"
                    aria-label="Pick the accent colour"
                    value={colour}
                    onChange={(event) =>
                      setValue('accent_color', event.target.value, {
                        shouldDirty: true,
                        shouldValidate: submitCount > 0,
                      })
                    }
                    className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
                  />
                  <Input
                    {...aria}
                    className="w-32 font-mono"
                    spellCheck={false}
                    {...register('accent_color')}
                  />
                </div>
              )}
            </Field>
            <fieldset className="grid gap-2">
              <legend className="font-medium text-sm">Position</legend>
              <p className="text-muted-foreground text-sm">The corner of the page the chat button sits in.</p>
              <div className="inline-flex w-fit rounded-lg border bg-muted p-1">
                {(['left', 'right'] as const).map((side) => (
                  <label
                    key={side}
                    className="cursor-pointer rounded-md px-3 py-1 text-sm font-medium text-muted-foreground has-checked:bg-background has-checked:text-foreground has-checked:shadow-sm has-focus-visible:ring-2 has-focus-visible:ring-ring"
                  >
                    <input type="radio" value={side} className="sr-only" {...register('position')} />
                    {side === 'left' ? 'Bottom left' : 'Bottom right'}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="grid gap-4">
              <SwitchField
                id="widget-open-on-load"
                label="Open on load"
                description="The chat opens by itself when a page loads, instead of waiting for a click."
                checked={values.open_on_load ?? false}
                onCheckedChange={(checked) => setValue('open_on_load', checked, { shouldDirty: true })}
              />
              <SwitchField
                id="widget-show-sources"
                label="Show sources"
                description="Answers list the passages of your knowledge they cite."
                checked={values.show_sources ?? false}
                onCheckedChange={(checked) => setValue('show_sources', checked, { shouldDirty: true })}
              />
              <SwitchField
                id="widget-feedback"
                label="Feedback buttons"
                description="Visitors can rate answers with thumbs up or down; you see the ratings in the chat."
                checked={values.feedback_buttons ?? false}
                onCheckedChange={(checked) => setValue('feedback_buttons', checked, { shouldDirty: true })}
              />
            </div>
          </div>
          <div className="grid min-w-0 content-start gap-2 xl:sticky xl:top-6 xl:self-start">
            <h4 className="font-medium text-sm">Preview</h4>
            <WidgetPreview src={previewSrc} config={previewConfigOf(values)} />
            <p className="text-muted-foreground text-xs">
              The real widget with your unsaved changes. Nothing can be sent from here.
            </p>
          </div>
        </div>
      </Group>

      <Group
        id="widget-limits"
        title="Limits"
        description="Messages a visitor, and one internet address across visitors, may send. Over a limit the visitor gets the message below instead of an answer."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            form={form}
            path="limits.visitor_messages_per_hour"
            id="widget-visitor-hour"
            label="Per visitor, per hour"
          />
          <NumberField
            form={form}
            path="limits.visitor_messages_per_day"
            id="widget-visitor-day"
            label="Per visitor, per day"
          />
          <NumberField
            form={form}
            path="limits.ip_messages_per_hour"
            id="widget-ip-hour"
            label="Per address, per hour"
          />
          <NumberField
            form={form}
            path="limits.ip_messages_per_day"
            id="widget-ip-day"
            label="Per address, per day"
          />
        </div>
        <Field id="widget-limit-message" label="Limit message" error={errorAt('limits.limit_message')}>
          {(aria) => (
            <Textarea
              {...aria}
              rows={2}
              maxLength={WIDGET_LIMITS.limitMessageLength}
              {...register('limits.limit_message')}
            />
          )}
        </Field>
      </Group>

      <Group
        id="widget-takeover"
        title="Talk to a person"
        description="Visitors can ask for you. Their conversation is marked as waiting in your chats, and you can take over any widget conversation yourself."
      >
        <SwitchField
          id="widget-takeover-enabled"
          label="Visitors can ask for a person"
          description="A “Talk to a person” button in the chat, also offered when the knowledge has no answer."
          checked={takeoverOn}
          onCheckedChange={(checked) => setValue('takeover.enabled', checked, { shouldDirty: true })}
        />
        <div className="grid min-w-0 gap-5">
          <NumberField
            form={form}
            path="takeover.wait_minutes"
            id="widget-wait"
            label="Minutes to reply"
            description="If you have not replied by then, the assistant sends the message below and answers again."
            className="sm:w-40"
          />
          <SwitchField
            id="widget-email-owner"
            label="E-mail me"
            description="An e-mail each time a visitor asks for a person, sent as your notification profile says (its delay and quiet hours)."
            checked={values.takeover?.email_owner ?? false}
            onCheckedChange={(checked) => setValue('takeover.email_owner', checked, { shouldDirty: true })}
          />
          <Field id="widget-no-reply" label="No-reply message" error={errorAt('takeover.no_reply_message')}>
            {(aria) => (
              <Textarea
                {...aria}
                rows={2}
                maxLength={WIDGET_LIMITS.limitMessageLength}
                {...register('takeover.no_reply_message')}
              />
            )}
          </Field>
        </div>
      </Group>

      {/* Sticky only while there is something to save: the Save button stays in reach. */}
      <div
        className={cn(
          'z-10 -mx-1 grid gap-3 border-t bg-background/95 px-1 py-3 backdrop-blur',
          (isDirty || invalid || formError) && 'sticky bottom-0',
        )}
      >
        <FormError message={formError} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
            {invalid ? (
              <CircleAlertIcon className="size-4 shrink-0 text-destructive" aria-hidden="true" />
            ) : isDirty ? (
              <CircleDotIcon
                className="size-4 shrink-0 text-amber-600 dark:text-amber-400"
                aria-hidden="true"
              />
            ) : (
              <CheckIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            )}
            {/* Only the state is live; the "saved … ago" clock beside it would be announced as it ticks. */}
            <span
              role="status"
              className={cn(invalid ? 'text-destructive' : !isDirty && 'text-muted-foreground')}
            >
              {invalid
                ? 'Not saved: check the marked fields'
                : isDirty
                  ? 'Unsaved changes'
                  : savedAt.current
                    ? 'All changes saved'
                    : 'Default settings, not changed yet'}
            </span>
            {!invalid && !isDirty && savedAt.current ? (
              <RelativeTime iso={savedAt.current} className="text-muted-foreground" />
            ) : null}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" disabled={!isDirty || busy} onClick={() => reset()}>
              Discard
            </Button>
            <Button type="submit" disabled={!isDirty || busy}>
              {busy ? 'Saving…' : 'Save changes'}
            </Button>
          </div>
        </div>
      </div>

      <Dialog open={blocker.state === 'blocked'} onOpenChange={(open) => !open && blocker.reset?.()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Leave without saving?</DialogTitle>
            <DialogDescription>Your changes to the widget settings will be lost.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button variant="destructive" onClick={() => blocker.proceed?.()}>
              Leave
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </form>
  );
}

type NumberPath =
  | 'limits.visitor_messages_per_hour'
  | 'limits.visitor_messages_per_day'
  | 'limits.ip_messages_per_hour'
  | 'limits.ip_messages_per_day'
  | 'takeover.wait_minutes';

function NumberField({
  form,
  path,
  id,
  label,
  description,
  className,
}: {
  form: ReturnType<typeof useForm<TWidgetFormInput, unknown, TWidgetFormOutput>>;
  path: NumberPath;
  id: string;
  label: string;
  description?: string;
  className?: string;
}) {
  const error = form.getFieldState(path, form.formState).error?.message;
  return (
    <Field id={id} label={label} description={description} error={error}>
      {(aria) => (
        <Input
          {...aria}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          className={className}
          {...form.register(path, { valueAsNumber: true })}
        />
      )}
    </Field>
  );
}
