import type { TErrorBody } from '@cairn/contracts/errors';
import type {
  TVisitorSession,
  TWidgetBoot,
  TWidgetEvent,
  TWidgetVisitorState,
} from '@cairn/contracts/widget';
import { createParser } from 'eventsource-parser';

/** Renew the token this long before it expires. */
const RENEW_AHEAD_MS = 5 * 60_000;

/** An error of the visitor API, with the server's words (a limit's message is the owner's). */
export class VisitorApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * The state the loader handed over in the URL fragment (`#cairn=<JSON>`), read once and removed
 * from the address.
 */
function handedOver(): TWidgetVisitorState | null {
  const match = /^#cairn=(.+)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const state = JSON.parse(decodeURIComponent(match[1]!)) as Partial<TWidgetVisitorState>;
    if (typeof state.token !== 'string' || typeof state.expires_at !== 'string') return null;
    return {
      token: state.token,
      expires_at: state.expires_at,
      conversation_uuid: typeof state.conversation_uuid === 'string' ? state.conversation_uuid : null,
    };
  } catch {
    return null;
  }
}

/**
 * The visitor's side of the widget API. The token and conversation survive reloads and navigation
 * across the host site: each change is sent to the loader (`save`), which keeps it in the host
 * page's storage and hands it to the next iframe.
 */
export class VisitorApi {
  private session: TWidgetVisitorState;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly boot: TWidgetBoot,
    private readonly save: (state: TWidgetVisitorState) => void,
  ) {
    this.session = handedOver() ?? {
      token: boot.token,
      expires_at: boot.expires_at,
      conversation_uuid: null,
    };
    this.save(this.session);
  }

  get conversationUuid(): string | null {
    return this.session.conversation_uuid;
  }

  setConversation(uuid: string | null) {
    this.session = { ...this.session, conversation_uuid: uuid };
    this.save(this.session);
  }

  /**
   * A kept token is renewed when it is near or past its expiry; one that cannot be (expired for
   * more than 7 days, or the site no longer allowed) is replaced by the page's fresh token, and its
   * conversation is forgotten.
   */
  async ready(): Promise<void> {
    if (Date.parse(this.session.expires_at) - Date.now() > RENEW_AHEAD_MS) return;
    this.renewing ??= this.renew().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async renew() {
    try {
      const session = await this.call<TVisitorSession>('POST', '/session/', undefined, false);
      this.session = { ...this.session, token: session.token, expires_at: session.expires_at };
    } catch (err) {
      if (!(err instanceof VisitorApiError) || err.status >= 500 || this.session.token === this.boot.token)
        throw err;
      this.session = { token: this.boot.token, expires_at: this.boot.expires_at, conversation_uuid: null };
    }
    this.save(this.session);
  }

  /** When the token should next be renewed, for a timer. */
  msUntilRenewal(): number {
    return Math.max(0, Date.parse(this.session.expires_at) - Date.now() - RENEW_AHEAD_MS);
  }

  async call<T>(method: string, path: string, body?: unknown, renewFirst = true): Promise<T> {
    if (renewFirst) await this.ready();
    let res: Response;
    try {
      res = await fetch(`/api/widget/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.session.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new VisitorApiError(
        0,
        'network',
        'Could not reach the chat. Check your connection and try again.',
      );
    }
    if (res.ok) return (await res.json()) as T;
    const error = (await res.json().catch(() => null)) as TErrorBody | null;
    throw new VisitorApiError(
      res.status,
      error?.code ?? 'error',
      error?.detail ?? `Something went wrong (${res.status}). Please try again.`,
    );
  }

  /**
   * Reads the visitor's event stream until it ends or `signal` aborts. `onOpen` runs once the
   * server has subscribed (so nothing sent after it is missed).
   */
  async stream(
    onEvent: (event: TWidgetEvent) => void,
    onOpen: () => void,
    signal: AbortSignal,
  ): Promise<void> {
    await this.ready();
    const res = await fetch('/api/widget/v1/events/', {
      headers: { authorization: `Bearer ${this.session.token}`, accept: 'text/event-stream' },
      signal,
    });
    if (!res.ok || !res.body) {
      const error = (await res.json().catch(() => null)) as TErrorBody | null;
      throw new VisitorApiError(
        res.status,
        error?.code ?? 'error',
        error?.detail ?? 'The chat stream failed.',
      );
    }
    onOpen();
    const parser = createParser({
      onEvent: (message) => {
        try {
          onEvent(JSON.parse(message.data) as TWidgetEvent);
        } catch {
          // Not an event of ours: ignored.
        }
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  }
}
