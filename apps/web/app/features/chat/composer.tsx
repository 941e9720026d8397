import { MESSAGE_MAX } from '@cairn/contracts/message-rules';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { SendIcon, SquareIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { formatNumber } from '../../lib/format-number';
import { cn } from '../../lib/utils';

/** The message box: Enter sends, Shift+Enter breaks the line; Stop while an answer is being written. */
export function Composer({
  onSend,
  onStop,
  busy,
  disabled,
  placeholder,
  focusKey = null,
}: {
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
  busy: boolean;
  disabled?: boolean;
  placeholder: string;
  /** The box takes the focus each time this becomes a new non-null value (a new chat opened). */
  focusKey?: string | null;
}) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusKey !== null) ref.current?.focus();
  }, [focusKey]);
  const tooLong = text.length > MESSAGE_MAX;
  const canSend = text.trim().length > 0 && !tooLong && !disabled;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const value = text;
    // Cleared at once (the message is already on screen); a failed send keeps it there with Retry.
    setText('');
    void onSend(value);
    ref.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      className="rounded-2xl border bg-card p-2 shadow-sm focus-within:ring-2 focus-within:ring-ring"
    >
      <label htmlFor="chat-message" className="sr-only">
        Message
      </label>
      <textarea
        id="chat-message"
        ref={ref}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        placeholder={placeholder}
        aria-invalid={tooLong}
        aria-describedby={tooLong ? 'chat-message-error' : undefined}
        className="block max-h-60 w-full resize-none bg-transparent px-2 py-1.5 text-sm outline-none placeholder:truncate placeholder:text-muted-foreground"
      />
      <div className="flex items-center justify-between gap-2 px-1 pt-1">
        <span
          id="chat-message-error"
          className={cn('text-xs text-muted-foreground', tooLong && 'text-destructive')}
          aria-live="polite"
        >
          {tooLong
            ? `At most ${formatNumber(MESSAGE_MAX)} characters (${formatNumber(text.length)} now).`
            : text.length > MESSAGE_MAX * 0.9
              ? `${formatNumber(MESSAGE_MAX - text.length)} characters left`
              : ''}
        </span>
        {busy ? (
          <Button type="button" size="sm" variant="outline" onClick={onStop}>
            <SquareIcon aria-hidden="true" />
            Stop
          </Button>
        ) : (
          <Button type="submit" size="sm" disabled={!canSend}>
            <SendIcon aria-hidden="true" />
            Send
          </Button>
        )}
      </div>
    </form>
  );
}
