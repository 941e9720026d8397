import type { TWidgetConfig, TWidgetPreviewMessage } from '@cairn/contracts/widget';
import { useCallback, useEffect, useRef } from 'react';

/**
 * The real widget, in preview mode: the embed page answers the signed-in owner on this origin only
 * (frame-ancestors 'self'), draws the chat from the saved settings, and takes the form's unsaved
 * appearance through postMessage (sent on load, when the chat says it is ready, and on each change).
 * Nothing can be sent from it.
 */
export function WidgetPreview({ src, config }: { src: string; config: TWidgetConfig }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const latest = useRef(config);
  latest.current = config;

  const post = useCallback(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const message: TWidgetPreviewMessage = { cairn: 'preview', config: latest.current };
    // The iframe is this app's own page: only this origin may read the message.
    target.postMessage(message, window.location.origin);
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== window.location.origin) return;
      if ((event.data as { cairn?: unknown } | null)?.cairn === 'ready') post();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [post]);

  // A short pause, so typing a title does not post a message per key; only a real change posts.
  const key = JSON.stringify(config);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the config, which `post` reads from a ref
  useEffect(() => {
    const timer = setTimeout(post, 120);
    return () => clearTimeout(timer);
  }, [key, post]);

  return (
    <iframe
      ref={frame}
      src={src}
      title="Widget preview"
      // Far down the page: loaded when the owner gets near it.
      loading="lazy"
      onLoad={post}
      className="h-[34rem] w-full rounded-xl border bg-background shadow-sm"
    />
  );
}
