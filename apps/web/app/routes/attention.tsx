import type { TNegativeFeedback, TWaitingConversation } from '@cairn/contracts/attention';
import { type ReactNode, useEffect } from 'react';
import { Link, useFetcher } from 'react-router';
import {
  CircleCheckBigIcon,
  CircleHelpIcon,
  GlobeIcon,
  MessageSquareIcon,
  ThumbsDownIcon,
  UserRoundIcon,
} from '../components/icons';
import { LoadErrorAlert } from '../components/load-error-alert';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { AddedItems } from '../features/attention/added-items';
import {
  type AttentionActionData,
  attentionAction,
  loadAttention,
} from '../features/attention/attention.server';
import { focusSection, SECTION_IDS } from '../features/attention/focus-section';
import { UnansweredAnswers, UnansweredRow } from '../features/attention/unanswered-row';
import { useAddedItems } from '../features/attention/use-added-items';
import { useNow } from '../features/attention/use-now';
import { waitedFor } from '../features/attention/waited-for';
import { RelativeTime } from '../features/chat/relative-time';
import { apiFor } from '../lib/api.server';
import type { Route } from './+types/attention';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Needs attention · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  return loadAttention(apiFor(args), args.params.appId);
}

export async function action(args: Route.ActionArgs) {
  return attentionAction(apiFor(args), args.params.appId, await args.request.formData());
}

/**
 * The owner's inbox of one application (issue 12 §5): visitors waiting for a person, questions the
 * knowledge could not answer (turned into knowledge from here) and answers rated “Bad answer”.
 */
export default function Attention({ loaderData, params }: Route.ComponentProps) {
  const { attention, error } = loaderData;
  const { selected } = useNavigationData();
  const appId = params.appId;
  const { added, add } = useAddedItems(appId);

  let body: ReactNode;
  if (attention === null) {
    body = <LoadErrorAlert message={error} />;
  } else if (
    !attention.waiting.length &&
    !attention.unanswered.length &&
    !attention.negative_feedback.length &&
    !added.length
  ) {
    body = (
      <EmptyState
        icon={<CircleCheckBigIcon />}
        title="Nothing needs you right now"
        description={
          <>
            Visitors who ask for a person, questions your knowledge could not answer and answers rated “Bad
            answer” show up here. Try the assistant in a{' '}
            <Link to={`/applications/${appId}/messages/new_chat`} className="text-primary underline">
              new chat
            </Link>{' '}
            or add to the{' '}
            <Link to={`/applications/${appId}/knowledge-base`} className="text-primary underline">
              knowledge base
            </Link>
            .
          </>
        }
      />
    );
  } else {
    body = (
      <div className="grid gap-10">
        <Section
          id={SECTION_IDS.waiting}
          title="Waiting for a person"
          description="Visitors who asked to talk to someone, longest wait first."
          empty="Nobody is waiting."
          count={attention.waiting.length}
        >
          {attention.waiting.map((room) => (
            <WaitingRow key={room.uuid} appId={appId} room={room} />
          ))}
        </Section>
        <Section
          id={SECTION_IDS.unanswered}
          title="Unanswered questions"
          description="Questions your knowledge does not cover, similar ones together. Answer one to add it to the knowledge base."
          empty="Every question was answered from your knowledge."
          count={attention.unanswered.length}
          after={<AddedItems appId={appId} items={added} />}
        >
          {attention.unanswered.map((question) => (
            <UnansweredRow key={question.uuid} appId={appId} question={question} />
          ))}
        </Section>
        <Section
          id={SECTION_IDS.feedback}
          title="Bad answers"
          description="Answers rated “Bad answer”, newest first. Open the conversation to see what went wrong."
          empty="No answer was rated bad."
          count={attention.negative_feedback.length}
        >
          {attention.negative_feedback.map((feedback) => (
            <FeedbackRow key={feedback.message_uuid} appId={appId} feedback={feedback} />
          ))}
        </Section>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Needs attention" description={selected?.name} />
      {body}
      <UnansweredAnswers questions={attention?.unanswered} onAdded={add} />
    </div>
  );
}

function Section({
  id,
  title,
  description,
  empty,
  count,
  children,
  after,
}: {
  id: string;
  title: string;
  description: string;
  empty: string;
  count: number;
  children: ReactNode;
  /** Shown below the entries (or the empty line). */
  after?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <div className="grid gap-1">
        <h2 id={id} tabIndex={-1} className="flex items-center gap-2 font-semibold text-lg outline-none">
          {title}
          {count ? (
            <span className="rounded-full bg-muted px-2 text-muted-foreground text-sm tabular-nums">
              {count}
            </span>
          ) : null}
        </h2>
        <p className="text-muted-foreground text-sm">{description}</p>
      </div>
      {count ? (
        <ul className="divide-y rounded-xl border" aria-label={title}>
          {children}
        </ul>
      ) : (
        <p className="rounded-xl border border-dashed px-4 py-3 text-muted-foreground text-sm">{empty}</p>
      )}
      {after}
    </section>
  );
}

function WaitingRow({ appId, room }: { appId: string; room: TWaitingConversation }) {
  const now = useNow();
  return (
    <li className="flex items-start gap-3 px-4 py-3">
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-amber-500/15 text-amber-800 dark:text-amber-300 [&_svg]:size-4">
        {room.source === 'widget' ? <GlobeIcon aria-hidden="true" /> : <UserRoundIcon aria-hidden="true" />}
      </span>
      <div className="grid min-w-0 flex-1 gap-0.5">
        <Link
          to={`/applications/${appId}/messages/${room.uuid}`}
          className="truncate font-medium underline-offset-4 hover:underline"
        >
          {room.name}
        </Link>
        <p className="text-sm">
          <time
            dateTime={room.waiting_since}
            title={new Date(room.waiting_since).toLocaleString('en')}
            className="font-medium text-amber-800 dark:text-amber-300"
            suppressHydrationWarning
          >
            Waiting {waitedFor(room.waiting_since, now)}
          </time>
        </p>
        {room.started_on ? (
          <p className="truncate text-muted-foreground text-sm" title={room.started_on}>
            Started on {room.started_on}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function FeedbackRow({ appId, feedback }: { appId: string; feedback: TNegativeFeedback }) {
  const fetcher = useFetcher<AttentionActionData>({ key: `dismiss-feedback-${feedback.message_uuid}` });
  const busy = fetcher.state !== 'idle';
  const titleId = `feedback-${feedback.message_uuid}`;
  const done = fetcher.data?.ok === true;
  // The row (and the button that had focus) goes away with the reload: focus stays in the section.
  useEffect(() => {
    if (done) focusSection(SECTION_IDS.feedback);
  }, [done]);
  return (
    <li className="grid grid-cols-1 gap-2 px-4 py-3" aria-labelledby={titleId}>
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">
          <ThumbsDownIcon aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <p id={titleId} className="font-medium wrap-anywhere">
            {feedback.question ? (
              feedback.question
            ) : (
              <span className="inline-flex items-center gap-1 text-muted-foreground">
                <CircleHelpIcon className="size-4" aria-hidden="true" />
                Question not found
              </span>
            )}
          </p>
          <blockquote className="border-l-2 pl-3 text-muted-foreground text-sm wrap-anywhere">
            {feedback.answer_excerpt}
          </blockquote>
          <p className="text-muted-foreground text-sm">
            Answered <RelativeTime iso={feedback.answered_at} />
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:ml-11">
        <Button asChild size="sm" variant="outline">
          <Link to={`/applications/${appId}/messages/${feedback.chatroom.uuid}`}>
            <MessageSquareIcon aria-hidden="true" />
            Open conversation
            <span className="sr-only"> of “{feedback.question || 'the rated answer'}”</span>
          </Link>
        </Button>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="dismiss-feedback" />
          <input type="hidden" name="id" value={feedback.message_uuid} />
          <Button type="submit" size="sm" variant="ghost" disabled={busy}>
            {busy ? 'Dismissing…' : 'Dismiss'}
            <span className="sr-only">: {feedback.question || 'rated answer'}</span>
          </Button>
        </fetcher.Form>
      </div>
    </li>
  );
}
