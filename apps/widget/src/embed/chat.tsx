import type { TFeedback, TSource } from '@cairn/contracts/chat';
import { headingOf } from '@cairn/contracts/citations';
import type {
  TWidgetBoot,
  TWidgetConfig,
  TWidgetConversation,
  TWidgetConversationMessages,
  TWidgetFrameMessage,
  TWidgetHostMessage,
  TWidgetMessage,
  TWidgetPreviewMessage,
  TWidgetSendResponse,
} from '@cairn/contracts/widget';
import { WIDGET_LIMITS } from '@cairn/contracts/widget-limits';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { textOn } from '../shared/contrast';
import {
  applyEvent,
  applyKept,
  type ConversationState,
  conversationOf,
  EMPTY,
  isAnswering,
  type KeptEvents,
  keepEvent,
  mergeMessages,
  NO_EVENTS,
  oneReadAtATime,
} from './conversation';
import { renderMarkdown } from './markdown';
import { VisitorApi, VisitorApiError } from './visitor-api';

const RECONNECT_MAX_MS = 15_000;

/** Messages to the host page go to its origin only. */
function toHost(boot: TWidgetBoot, message: TWidgetFrameMessage) {
  if (window.parent !== window) window.parent.postMessage(message, boot.origin);
}

/** What a send must know when it returns: whether the chat started over, and whether the stream was up throughout. */
interface SendTicket {
  generation: number;
  streamUp: boolean;
  streamOpens: number;
}

function useConversation(boot: TWidgetBoot, api: VisitorApi | null) {
  const [state, setState] = useState<ConversationState>(EMPTY);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const announced = useRef(new Set<string>());
  /** Events of a conversation not held yet, kept while a send is under way (null otherwise). */
  const kept = useRef<KeptEvents | null>(null);
  /** Grows on each "new conversation": a send begun before it is not taken. */
  const generation = useRef(0);
  const streamUp = useRef(false);
  const streamOpens = useRef(0);

  function commit(next: ConversationState) {
    stateRef.current = next;
    setState(next);
  }

  /** Reads the conversation; what it holds is told to the host page only when `announce` is set. */
  const load = useMemo(
    () =>
      oneReadAtATime(async (uuid, announce) => {
        if (!api) return false;
        try {
          const data = await api.call<TWidgetConversationMessages>('GET', `/conversations/${uuid}/`);
          if (api.conversationUuid !== uuid) return false;
          if (!announce) for (const m of data.messages) announced.current.add(m.uuid);
          // Merged, not replaced: events applied while the read was under way may be newer.
          const held = stateRef.current;
          commit({
            conversation: data.conversation,
            messages: mergeMessages(held.conversation?.uuid === uuid ? held.messages : [], data.messages),
          });
          return true;
        } catch (err) {
          if (err instanceof VisitorApiError && err.status === 404) api.setConversation(null);
          else if (err instanceof VisitorApiError && (err.status === 401 || err.status === 403))
            setUnavailable(err.message);
          return false;
        }
      }),
    [api],
  );

  // Tell the host page about each finished reply (for its `message` event), once.
  useEffect(() => {
    for (const m of state.messages) {
      if (m.role === 'visitor' || announced.current.has(m.uuid)) continue;
      if (m.status !== 'complete') continue;
      announced.current.add(m.uuid);
      toHost(boot, { cairn: 'message', role: m.role, text: m.text });
    }
  }, [state.messages, boot]);

  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    let attempt = 0;
    const connect = async () => {
      while (!controller.signal.aborted) {
        try {
          await api.stream(
            (event) => {
              const held = stateRef.current;
              if (kept.current && conversationOf(event) !== held.conversation?.uuid) {
                kept.current = keepEvent(kept.current, event);
                return;
              }
              const next = applyEvent(held, event);
              if (next === 'refetch') void load(conversationOf(event));
              else commit(next);
            },
            () => {
              attempt = 0;
              streamUp.current = true;
              streamOpens.current++;
              // Anything missed while the stream was down is read again.
              if (api.conversationUuid) void load(api.conversationUuid);
            },
            controller.signal,
          );
        } catch (err) {
          if (controller.signal.aborted) return;
          if (err instanceof VisitorApiError && err.status === 403) {
            setUnavailable(err.message);
            return;
          }
        } finally {
          streamUp.current = false;
        }
        attempt++;
        await new Promise((r) => setTimeout(r, Math.min(RECONNECT_MAX_MS, 500 * 2 ** attempt)));
      }
    };
    void connect();
    // Keep the token fresh while the chat is open.
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(() => {
        api.ready().then(schedule, schedule);
      }, api.msUntilRenewal() + 1000);
    };
    schedule();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, load]);

  return {
    state,
    unavailable,
    load,
    /** The state as of now, for code that resumes after an await (a render's `state` may be stale). */
    current: () => stateRef.current,
    set: commit,
    /** "New conversation": the chat holds none, and a send under way is not taken when it returns. */
    reset() {
      generation.current++;
      kept.current = null;
      api?.setConversation(null);
      commit(EMPTY);
    },
    /** A send begins: from now on the stream's events of a conversation the chat does not hold are kept. */
    beginSend(): SendTicket {
      kept.current = NO_EVENTS;
      return { generation: generation.current, streamUp: streamUp.current, streamOpens: streamOpens.current };
    },
    /**
     * The send ended (`res` null when it failed). Its answer is taken unless the chat started over
     * meanwhile (then false): the conversation, then the events kept while the send was under way.
     */
    endSend(ticket: SendTicket, res: TWidgetSendResponse | null): boolean {
      const events = kept.current ?? NO_EVENTS;
      if (ticket.generation !== generation.current) return false;
      kept.current = null;
      if (!api || !res) return true;
      const uuid = res.conversation.uuid;
      api.setConversation(uuid);
      const held = stateRef.current;
      const { state: next, refetch } = applyKept(
        {
          conversation: res.conversation,
          messages: mergeMessages(
            held.conversation?.uuid === uuid ? held.messages : [],
            res.answer ? [res.message, res.answer] : [res.message],
          ),
        },
        events,
      );
      commit(next);
      // Read once more only when events may be missing: some could not be applied or were dropped,
      // or the stream was down when the send began or reconnected since (its reconnection read no
      // conversation, as the chat held none yet). A stream down now reads it when it reconnects.
      const streamedThroughout = ticket.streamUp && ticket.streamOpens === streamOpens.current;
      if (refetch || !streamedThroughout) void load(uuid, true);
      return true;
    },
  };
}

export function Chat({ boot, initialConfig }: { boot: TWidgetBoot; initialConfig: TWidgetConfig }) {
  const api = useMemo(
    () => (boot.preview ? null : new VisitorApi(boot, (state) => toHost(boot, { cairn: 'state', state }))),
    [boot],
  );
  const [config, setConfig] = useState(initialConfig);
  const { state, unavailable, load, current, set, reset, beginSend, endSend } = useConversation(boot, api);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [source, setSource] = useState<TSource | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const pageUrl = useRef<string | undefined>(undefined);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (api?.conversationUuid) void load(api.conversationUuid);
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== boot.origin) return;
      const data = event.data as (TWidgetHostMessage | TWidgetPreviewMessage) | null;
      if (data?.cairn === 'focus') input.current?.focus();
      else if (data?.cairn === 'page')
        pageUrl.current = String(data.url).slice(0, WIDGET_LIMITS.pageUrlLength);
      else if (data?.cairn === 'reset') startOver();
      else if (data?.cairn === 'preview' && boot.preview) setConfig(data.config);
    };
    window.addEventListener('message', onMessage);
    toHost(boot, { cairn: 'ready' });
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Follow the conversation as it grows, unless the visitor scrolled up to read.
  const lastText = state.messages.at(-1)?.text.length ?? 0;
  useEffect(() => {
    const el = log.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [state.messages.length, lastText]);

  // Esc closes the open source, else the chat (the host page then returns focus to its launcher).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (source) setSource(null);
      else toHost(boot, { cairn: 'close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [source, boot]);

  function startOver() {
    reset();
    setError(null);
    setDraft('');
    input.current?.focus();
  }

  async function send(text: string) {
    const message = text.trim();
    if (!api || !message || sending) return;
    setSending(true);
    setError(null);
    const ticket = beginSend();
    try {
      const res = await api.call<TWidgetSendResponse>('POST', '/messages/', {
        conversation_uuid: state.conversation?.uuid ?? null,
        message: text,
        page_url: pageUrl.current,
      });
      if (endSend(ticket, res)) setDraft('');
    } catch (err) {
      // The text stays in the box: nothing typed is lost (unless the visitor started over).
      if (endSend(ticket, null))
        setError(err instanceof Error ? err.message : 'Could not send. Please try again.');
    } finally {
      setSending(false);
      input.current?.focus();
    }
  }

  async function rate(message: TWidgetMessage, feedback: TFeedback) {
    if (!api) return;
    const next = message.feedback === feedback ? null : feedback;
    try {
      const updated = await api.call<TWidgetMessage>('POST', `/messages/${message.uuid}/feedback/`, {
        feedback: next,
      });
      const held = current();
      if (held.messages.some((m) => m.uuid === updated.uuid))
        set({ ...held, messages: mergeMessages(held.messages, [updated]) });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not save your rating.');
    }
  }

  async function askForPerson() {
    const uuid = state.conversation?.uuid;
    if (!api || !uuid) return;
    setError(null);
    try {
      const conversation = await api.call<TWidgetConversation>('POST', `/conversations/${uuid}/handoff/`);
      // Into the state as of now: messages streamed meanwhile stay, and a chat started over stays empty.
      const held = current();
      if (held.conversation?.uuid === uuid) set({ ...held, conversation });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not reach a person. Please try again.');
    }
  }

  const answering = isAnswering(state);
  const conversation = state.conversation;
  const canAskForPerson = config.takeover_enabled && conversation?.handled_by === 'assistant';
  const lastMessage = state.messages.at(-1);
  // One way to ask for a person at a time: under an answer that found nothing, else in the footer.
  const offerUnderLast = canAskForPerson && lastMessage?.not_covered === true;
  const personName = [...state.messages].reverse().find((m) => m.role === 'human')?.author_name;

  return (
    <div class="chat" style={{ '--accent': config.accent_color, '--on-accent': textOn(config.accent_color) }}>
      <header class="head">
        <h1 class="title">{config.title}</h1>
        <button
          type="button"
          class="icon-button"
          onClick={startOver}
          disabled={!conversation || boot.preview}
          aria-label="New conversation"
          title="New conversation"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 5v14M5 12h14" />
          </svg>
        </button>
        {window.parent !== window && !boot.preview ? (
          <button
            type="button"
            class="icon-button"
            onClick={() => toHost(boot, { cairn: 'close' })}
            aria-label="Close chat"
            title="Close"
          >
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        ) : null}
      </header>

      <div class="log" ref={log} role="log" aria-live="polite" aria-label="Conversation">
        {config.greeting ? (
          <div class="msg assistant">
            <div
              class="bubble md"
              dangerouslySetInnerHTML={{ __html: renderMarkdown(config.greeting, null) }}
            />
          </div>
        ) : null}
        {state.messages.length === 0 && config.suggested_questions.length > 0 ? (
          <ul class="suggestions" aria-label="Suggested questions">
            {config.suggested_questions.map((q) => (
              <li key={q}>
                <button type="button" class="chip" onClick={() => void send(q)} disabled={!api || sending}>
                  {q}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {state.messages.map((m) => (
          <MessageView
            key={m.uuid}
            message={m}
            config={config}
            onCite={setSource}
            onRate={rate}
            onAskForPerson={offerUnderLast && m === lastMessage ? askForPerson : null}
          />
        ))}
      </div>

      {conversation?.waiting_since ? (
        <p class="notice" role="status">
          Waiting for a person. Their reply will appear here; you can keep writing meanwhile.
        </p>
      ) : conversation?.handled_by === 'human' ? (
        <p class="notice" role="status">
          {personName ? `You are chatting with ${personName}.` : 'A person is handling this conversation.'}
        </p>
      ) : null}
      {unavailable ? (
        <p class="error" role="alert">
          This chat is not available right now.
        </p>
      ) : error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}

      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send(draft);
        }}
      >
        <textarea
          ref={input}
          value={draft}
          rows={1}
          placeholder={boot.preview ? 'Preview: visitors type here' : 'Ask a question…'}
          aria-label="Your message"
          disabled={!api || Boolean(unavailable)}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void send(draft);
            }
          }}
        />
        <button
          type="submit"
          class="send"
          disabled={!api || sending || answering || !draft.trim() || Boolean(unavailable)}
          aria-label="Send"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M5 12h14M13 6l6 6-6 6" />
          </svg>
        </button>
      </form>
      <div class="foot">
        {canAskForPerson && state.messages.length > 0 && !offerUnderLast ? (
          <button type="button" class="link" onClick={() => void askForPerson()}>
            Talk to a person
          </button>
        ) : (
          <span />
        )}
        <span class="brand">Powered by Cairn</span>
      </div>

      {source ? <SourceDialog source={source} onClose={() => setSource(null)} /> : null}
    </div>
  );
}

function MessageView({
  message,
  config,
  onCite,
  onRate,
  onAskForPerson,
}: {
  message: TWidgetMessage;
  config: TWidgetConfig;
  onCite: (source: TSource) => void;
  onRate: (message: TWidgetMessage, feedback: TFeedback) => void;
  onAskForPerson: (() => void) | null;
}) {
  const { role, status } = message;
  const working = status === 'pending' || (status === 'streaming' && !message.text);
  const html = useMemo(
    () => renderMarkdown(message.text, role === 'assistant' ? message.sources : null),
    [message.text, message.sources, role],
  );
  if (message.notice) {
    // The assistant about the conversation (nobody available, back after a person): a line, not an answer.
    return (
      <div class="msg system">
        <p class="system-line">{message.text}</p>
      </div>
    );
  }
  return (
    <div class={`msg ${role}`}>
      {role === 'human' && message.author_name ? <span class="author">{message.author_name}</span> : null}
      {working ? (
        <div class="bubble typing" role="status">
          <span class="sr-only">Thinking…</span>
          <span class="dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
        </div>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: delegation for the citation buttons inside (real buttons: keyboard works)
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above, Enter and Space on a button click it
        <div
          class="bubble md"
          dangerouslySetInnerHTML={{ __html: html }}
          onClick={(e) => {
            const button = (e.target as Element).closest('button[data-cite]') as HTMLElement | null;
            const source = button && message.sources.find((s) => s.index === Number(button.dataset.cite));
            if (source) onCite(source);
          }}
        />
      )}
      {status === 'failed' ? (
        <p class="msg-error">This answer could not be completed. Please ask again.</p>
      ) : null}
      {status === 'stopped' ? <p class="msg-note">Stopped.</p> : null}
      {role === 'assistant' && status === 'complete' && config.feedback_buttons ? (
        <fieldset class="rate">
          <legend class="sr-only">Was this helpful?</legend>
          <RateButton message={message} value="up" label="Helpful" onRate={onRate} />
          <RateButton message={message} value="down" label="Not helpful" onRate={onRate} />
        </fieldset>
      ) : null}
      {onAskForPerson ? (
        <button type="button" class="chip person" onClick={onAskForPerson}>
          Talk to a person
        </button>
      ) : null}
    </div>
  );
}

function RateButton({
  message,
  value,
  label,
  onRate,
}: {
  message: TWidgetMessage;
  value: TFeedback;
  label: string;
  onRate: (message: TWidgetMessage, feedback: TFeedback) => void;
}) {
  return (
    <button
      type="button"
      class="icon-button small"
      aria-label={label}
      title={label}
      aria-pressed={message.feedback === value}
      onClick={() => onRate(message, value)}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" class={value === 'down' ? 'flip' : undefined}>
        <path d="M7 10v11M15 5.9 14 10h5.8a2 2 0 0 1 2 2.3l-1.4 7A2 2 0 0 1 18.4 21H7V10l4-8a3 3 0 0 1 4 3.9Z" />
      </svg>
    </button>
  );
}

function SourceDialog({ source, onClose }: { source: TSource; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => opener?.focus();
  }, []);
  const heading = headingOf(source);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog closes it; Esc and the close button do too
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="source-title">
        <div class="dialog-head">
          <h2 id="source-title">
            <span class="badge">{source.index}</span> {source.item_title}
          </h2>
          <button ref={close} type="button" class="icon-button" onClick={onClose} aria-label="Close source">
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        </div>
        {heading || source.page !== null ? (
          <p class="where">
            {[heading, source.page !== null ? `page ${source.page}` : null].filter(Boolean).join(' · ')}
          </p>
        ) : null}
        <blockquote class="snippet">{source.snippet}</blockquote>
      </div>
    </div>
  );
}
