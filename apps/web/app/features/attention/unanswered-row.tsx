import type { TUnansweredQuestion } from '@cairn/contracts/attention';
import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge-limits';
import { Fragment, useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { ConfirmForm } from '../../components/confirm-form';
import { FetcherAnswer, useEverShown } from '../../components/fetcher-answer';
import { FormError } from '../../components/form-error';
import { BookPlusIcon, EyeOffIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../lib/toast';
import { RelativeTime } from '../chat/relative-time';
import type { AttentionActionData } from './attention.server';
import { focusSection, SECTION_IDS } from './focus-section';

/** Chatrooms named under a question; the rest are counted. */
const ROOMS_SHOWN = 3;

/** One group of unanswered questions: how often and when, where, and what the owner can do. */
export function UnansweredRow({ appId, question }: { appId: string; question: TUnansweredQuestion }) {
  const titleId = `unanswered-${question.uuid}`;
  const more = question.chatrooms.length - ROOMS_SHOWN;
  return (
    <li className="grid grid-cols-1 gap-2 px-4 py-3" aria-labelledby={titleId}>
      <p id={titleId} className="font-medium wrap-anywhere">
        {question.question}
      </p>
      <p className="text-muted-foreground text-sm">
        Asked {question.count === 1 ? 'once' : `${question.count} times`} · last{' '}
        <RelativeTime iso={question.last_asked_at} />
      </p>
      {question.chatrooms.length ? (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm" aria-label="Conversations">
          {question.chatrooms.slice(0, ROOMS_SHOWN).map((room) => (
            <li key={room.uuid} className="min-w-0 max-w-full">
              {/* Named by when it was asked there: the conversation's own name is its first question,
                  which reads like another question than this one (the name is in the tooltip). */}
              <Link
                to={`/applications/${appId}/messages/${room.uuid}`}
                title={room.name}
                className="block truncate underline underline-offset-4 hover:text-muted-foreground"
              >
                Conversation, asked <RelativeTime iso={room.asked_at} />
              </Link>
            </li>
          ))}
          {more > 0 ? <li className="text-muted-foreground">and {more} more</li> : null}
        </ul>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-2">
        <AnswerDialog question={question} />
        <DismissDialog question={question} />
      </div>
    </li>
  );
}

/** "Add to knowledge": the question and the owner's answer become a Q&A pair, answered word for word. */
function AnswerDialog({ question }: { question: TUnansweredQuestion }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<AttentionActionData>({ key: answerFetcherKey(question.uuid) });
  const result =
    fetcher.data?.intent === 'answer' && fetcher.data.id === question.uuid ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  const fieldError = result && !result.ok ? result.errors.fieldErrors.answer : undefined;

  // Closed as soon as the answer arrives; the page says so (`UnansweredAnswers`), as this row may
  // already be gone.
  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <BookPlusIcon aria-hidden="true" />
          Add to knowledge
        </Button>
      </DialogTrigger>
      <DialogContent
        className="sm:max-w-xl"
        onCloseAutoFocus={(event) => {
          if (!result?.ok) return;
          // The entry and its button are gone: focus stays in the section.
          event.preventDefault();
          focusSection(SECTION_IDS.unanswered);
        }}
      >
        <DialogHeader>
          <DialogTitle>Answer this question</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            “{question.question}” and your answer become a Q&A pair in the knowledge base; once it is indexed,
            the assistant answers this question with your words exactly.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="answer" />
          <input type="hidden" name="id" value={question.uuid} />
          <FormError message={result && !result.ok ? result.errors.formError : null} />
          <Field id={`answer-${question.uuid}-text`} label="Answer" error={fieldError}>
            {(aria) => (
              <Textarea
                {...aria}
                name="answer"
                required
                rows={6}
                maxLength={KNOWLEDGE_LIMITS.qaAnswerChars}
                placeholder="Write the answer as you would want the assistant to give it."
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Adding…' : 'Add to knowledge'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}

/** "Dismiss", confirmed: the question stays hidden when it is asked again. */
function DismissDialog({ question }: { question: TUnansweredQuestion }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<AttentionActionData>({ key: dismissFetcherKey(question.uuid) });
  const result =
    fetcher.data?.intent === 'dismiss' && fetcher.data.id === question.uuid ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <EyeOffIcon aria-hidden="true" />
          Dismiss
        </Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!result?.ok) return;
          event.preventDefault();
          focusSection(SECTION_IDS.unanswered);
        }}
      >
        <DialogHeader>
          <DialogTitle>Dismiss this question?</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            “{question.question}” leaves this list, and similar questions asked later stay hidden too. The
            conversations are kept.
          </DialogDescription>
        </DialogHeader>
        <ConfirmForm
          fetcher={fetcher}
          fields={{ intent: 'dismiss', id: question.uuid }}
          error={result && !result.ok ? result.errors.formError : null}
          onCancel={() => setOpen(false)}
          confirm="Dismiss"
          confirming="Dismissing…"
        />
      </DialogContent>
    </Dialog>
  );
}

const answerFetcherKey = (uuid: string) => `answer-${uuid}`;
const dismissFetcherKey = (uuid: string) => `dismiss-${uuid}`;

/**
 * Says what became of each question the page has shown, outside its row: another event may reload
 * the list without the row before the row's own answer arrives. `onAdded` gets the knowledge item an
 * answer became, whose ingestion the page then shows.
 */
export function UnansweredAnswers({
  questions,
  onAdded,
}: {
  questions: readonly TUnansweredQuestion[] | undefined;
  onAdded: (item: TKnowledgeItem) => void;
}) {
  const shown = useEverShown(questions, (question) => question.uuid);
  return shown.map((question) => (
    <Fragment key={question.uuid}>
      <FetcherAnswer<AttentionActionData>
        fetcherKey={answerFetcherKey(question.uuid)}
        onAnswer={(answer) => {
          if (answer.intent !== 'answer' || !answer.ok || answer.id !== question.uuid) return;
          onAdded(answer.item);
          toast.success('Added to the knowledge base', {
            description: `“${answer.item.title}” is being indexed; its status shows under Unanswered questions.`,
          });
        }}
      />
      <FetcherAnswer<AttentionActionData>
        fetcherKey={dismissFetcherKey(question.uuid)}
        onAnswer={(answer) => {
          if (answer.intent === 'dismiss' && answer.ok && answer.id === question.uuid)
            toast.success('Question dismissed');
        }}
      />
    </Fragment>
  ));
}
