import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge-limits';
import { useEffect, useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
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
import type { FormErrors } from '../../lib/api-error';
import { toast } from '../../lib/toast';

/** The form of a new Q&A pair (no `item`) or of an existing one, in a dialog. */
export function QaPairDialog({
  item,
  open,
  onOpenChange,
}: {
  item?: TKnowledgeItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fetcher = useFetcher<{ errors?: FormErrors; saved?: string }>({
    key: `qa-pair-${item?.uuid ?? 'new'}`,
  });
  const id = useId();
  const [question, setQuestion] = useState(item?.qa?.question ?? '');
  const [answer, setAnswer] = useState(item?.qa?.answer ?? '');
  const [alternatives, setAlternatives] = useState(item?.qa?.alternatives.join('\n') ?? '');
  const busy = fetcher.state !== 'idle';
  const errors = fetcher.data?.errors;
  const fieldError = (field: string) =>
    errors?.fieldErrors[field] ?? errors?.fieldErrors[`items[0].${field}`];

  // Opened again: the form shows the pair as it is now.
  useEffect(() => {
    if (!open) return;
    setQuestion(item?.qa?.question ?? '');
    setAnswer(item?.qa?.answer ?? '');
    setAlternatives(item?.qa?.alternatives.join('\n') ?? '');
  }, [open, item?.qa]);

  const saved = fetcher.state === 'idle' ? fetcher.data?.saved : undefined;
  useEffect(() => {
    if (!saved) return;
    onOpenChange(false);
    toast.success(item ? 'Q&A pair saved' : 'Q&A pair added', {
      description: 'It answers as soon as it is indexed, in a moment.',
    });
  }, [saved, item, onOpenChange]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{item ? 'Edit Q&A pair' : 'Add a Q&A pair'}</DialogTitle>
          <DialogDescription>
            When a visitor asks this question, the assistant answers with your words exactly, without a
            language model.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="grid gap-4" noValidate>
          <input type="hidden" name="intent" value="qa-save" />
          {item ? <input type="hidden" name="item" value={item.uuid} /> : null}
          <FormError message={errors?.formError ?? null} />
          <Field id={`${id}-question`} label="Question" error={fieldError('question')}>
            {(aria) => (
              <Input
                {...aria}
                name="question"
                required
                maxLength={KNOWLEDGE_LIMITS.qaQuestionChars}
                value={question}
                onChange={(e) => setQuestion(e.target.value)}
                placeholder="How do I reset my password?"
              />
            )}
          </Field>
          <Field id={`${id}-answer`} label="Answer" error={fieldError('answer')}>
            {(aria) => (
              <Textarea
                {...aria}
                name="answer"
                required
                rows={5}
                maxLength={KNOWLEDGE_LIMITS.qaAnswerChars}
                value={answer}
                onChange={(e) => setAnswer(e.target.value)}
              />
            )}
          </Field>
          <Field
            id={`${id}-alternatives`}
            label="Other phrasings"
            description={`Optional: other ways to ask it, one per line (at most ${KNOWLEDGE_LIMITS.qaAlternatives}).`}
            error={fieldError('alternatives')}
          >
            {(aria) => (
              <Textarea
                {...aria}
                name="alternatives"
                rows={3}
                value={alternatives}
                onChange={(e) => setAlternatives(e.target.value)}
                placeholder="I forgot my password"
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : item ? 'Save' : 'Add Q&A pair'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
