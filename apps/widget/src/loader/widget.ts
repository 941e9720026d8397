/**
 * The loader a host page includes: `<script src="…/widget.js" data-app="<uuid>" async>`.
 * No dependencies, nothing global but `window.Cairn`, and nothing drawn unless the server says the
 * widget is on for this page's origin. The launcher lives in a shadow root (no style leaks
 * in either direction); the chat is an iframe created when the visitor first opens it.
 */
import type { TWidgetFrameMessage, TWidgetHostMessage, TWidgetLauncher } from '@cairn/contracts/widget';
import { textOn } from '../shared/contrast';

type Command = 'open' | 'close' | 'toggle' | 'reset';
type EventName = 'ready' | 'open' | 'close' | 'message';
type Handler = (detail?: { role: string; text: string }) => void;
interface CairnApi {
  (command: Command): void;
  (command: 'on' | 'off', event: EventName, handler: Handler): void;
  /** Calls made before the loader ran (the optional stub in the embed docs queues them here). */
  q?: IArguments[] | unknown[][];
}

/** Below this width the chat takes the whole screen. */
const FULL_SCREEN_BELOW = 640;

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M18 6 6 18M6 6l12 12"/></svg>';

function styles(launcher: TWidgetLauncher): string {
  const side = launcher.position === 'left' ? 'left' : 'right';
  return `:host{all:initial}
*{box-sizing:border-box}
.launcher{position:fixed;bottom:20px;${side}:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;
background:${launcher.accent_color};color:${textOn(launcher.accent_color)};cursor:pointer;display:flex;align-items:center;
justify-content:center;box-shadow:0 6px 20px rgba(0,0,0,.25);transition:transform .15s}
.launcher:hover{transform:scale(1.05)}
.launcher:focus-visible{outline:3px solid ${launcher.accent_color};outline-offset:3px}
.dot{position:absolute;top:2px;right:2px;width:14px;height:14px;border-radius:50%;background:#dc2626;border:2px solid #fff;display:none}
.unread .dot{display:block}
.panel{position:fixed;bottom:88px;${side}:20px;z-index:2147483000;width:400px;height:min(680px,calc(100vh - 108px));
border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.3);background:#fff;display:none}
.panel.open{display:block}
.panel iframe{width:100%;height:100%;border:0;display:block;color-scheme:normal}
@media (prefers-color-scheme:dark){.panel{background:#0b0f19;box-shadow:0 12px 40px rgba(0,0,0,.6)}.dot{border-color:#0b0f19}}
@media (max-width:${FULL_SCREEN_BELOW - 0.02}px){.panel{inset:0;width:100%;height:100%;border-radius:0}
.panel.open+.launcher{display:none}}
@media (prefers-reduced-motion:reduce){.launcher{transition:none}}`;
}

function start(script: HTMLScriptElement) {
  const appId = script.dataset.app ?? '';
  const base = new URL(script.src).origin;
  // The visitor's token and conversation, in this site's storage (see TWidgetVisitorState).
  const stateKey = `cairn:${appId}`;
  const readState = () => {
    try {
      return localStorage.getItem(stateKey);
    } catch {
      return null;
    }
  };
  const writeState = (value: string) => {
    try {
      localStorage.setItem(stateKey, value);
    } catch {
      // Storage refused: the conversation lasts as long as the page.
    }
  };
  const handlers: Partial<Record<EventName, Handler[]>> = {};
  const emit = (name: EventName, detail?: { role: string; text: string }) => {
    for (const handler of handlers[name] ?? []) {
      try {
        handler(detail);
      } catch (err) {
        console.error(err);
      }
    }
  };
  let ui: ReturnType<typeof draw> | null = null;
  const pending: Command[] = [];

  const api = ((command: Command | 'on' | 'off', event?: EventName, handler?: Handler) => {
    if (command === 'on' && event && handler) handlers[event] = [...(handlers[event] ?? []), handler];
    else if (command === 'off' && event)
      handlers[event] = (handlers[event] ?? []).filter((h) => h !== handler);
    else if (ui) ui.run(command as Command);
    else pending.push(command as Command);
  }) as CairnApi;
  const queued = (window as unknown as { Cairn?: CairnApi }).Cairn?.q ?? [];
  (window as unknown as { Cairn: CairnApi }).Cairn = api;
  for (const args of queued) (api as (...a: unknown[]) => void)(...Array.from(args as ArrayLike<unknown>));

  function draw(launcher: TWidgetLauncher) {
    const host = document.createElement('div');
    host.setAttribute('data-cairn-widget', '');
    const root = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = styles(launcher);
    const panel = document.createElement('div');
    panel.className = 'panel';
    panel.id = 'cairn-chat';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', launcher.title);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'launcher';
    button.setAttribute('aria-controls', 'cairn-chat');
    root.append(style, panel, button);
    document.body.appendChild(host);

    let frame: HTMLIFrameElement | null = null;
    let frameReady = false;
    const toFrame: TWidgetHostMessage[] = [];
    const post = (message: TWidgetHostMessage) => {
      if (frame?.contentWindow && frameReady) frame.contentWindow.postMessage(message, base);
      else toFrame.push(message);
    };
    const isOpen = () => panel.classList.contains('open');
    const render = () => {
      const open = isOpen();
      button.innerHTML = `${open ? CLOSE_ICON : CHAT_ICON}<span class="dot"></span>`;
      button.setAttribute(
        'aria-label',
        open ? `Close chat: ${launcher.title}` : `Open chat: ${launcher.title}`,
      );
      button.setAttribute('aria-expanded', String(open));
    };

    function open() {
      if (isOpen()) return;
      if (!frame) {
        frame = document.createElement('iframe');
        frame.title = launcher.title;
        const kept = readState();
        frame.src =
          `${base}/embed/v1/${encodeURIComponent(appId)}?origin=${encodeURIComponent(location.origin)}` +
          (kept ? `#cairn=${encodeURIComponent(kept)}` : '');
        frame.allow = 'clipboard-write';
        panel.appendChild(frame);
      }
      panel.classList.add('open');
      button.classList.remove('unread');
      render();
      post({ cairn: 'focus' });
      emit('open');
    }
    function close() {
      if (!isOpen()) return;
      panel.classList.remove('open');
      render();
      button.focus();
      emit('close');
    }
    const run = (command: Command) => {
      if (command === 'open') open();
      else if (command === 'close') close();
      else if (command === 'toggle') (isOpen() ? close : open)();
      else if (command === 'reset') post({ cairn: 'reset' });
    };

    button.addEventListener('click', () => run('toggle'));
    root.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Escape') close();
    });
    window.addEventListener('message', (event: MessageEvent) => {
      // Only our own iframe, from the Cairn origin, is listened to.
      if (!frame || event.source !== frame.contentWindow || event.origin !== base) return;
      const data = event.data as TWidgetFrameMessage | null;
      if (data?.cairn === 'ready') {
        frameReady = true;
        // Origin and path only: a query or fragment can carry the site's tokens or its visitors' data.
        post({ cairn: 'page', url: location.origin + location.pathname });
        for (const message of toFrame.splice(0)) post(message);
        if (isOpen()) post({ cairn: 'focus' });
      } else if (data?.cairn === 'close') close();
      else if (data?.cairn === 'state') writeState(JSON.stringify(data.state));
      else if (data?.cairn === 'message') {
        if (!isOpen()) button.classList.add('unread');
        emit('message', { role: data.role, text: data.text });
      }
    });
    render();
    return { run, open };
  }

  fetch(`${base}/api/widget/v1/launcher/${encodeURIComponent(appId)}/`, { credentials: 'omit' })
    .then(async (res) => {
      if (res.ok) return (await res.json()) as TWidgetLauncher;
      // Refused (not an allowed site, widget off, no such application): nothing is drawn, and the
      // site's developer is told why instead of guessing from a CORS error.
      const refusal = (await res.json().catch(() => null)) as { detail?: string } | null;
      console.error(`cairn: ${refusal?.detail ?? `the widget could not load (HTTP ${res.status}).`}`);
      return null;
    })
    .then((launcher) => {
      if (!launcher) return;
      ui = draw(launcher);
      for (const command of pending.splice(0)) ui.run(command);
      emit('ready');
      // A phone's whole screen is not taken over unasked.
      if (launcher.open_on_load && window.innerWidth >= FULL_SCREEN_BELOW) ui.open();
    })
    .catch(() => undefined);
}

const script = document.currentScript as HTMLScriptElement | null;
if (script?.dataset.app) {
  if (document.body) start(script);
  else document.addEventListener('DOMContentLoaded', () => start(script));
}
