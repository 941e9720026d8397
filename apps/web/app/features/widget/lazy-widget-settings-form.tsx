import type { TWidgetSettings } from '@cairn/contracts/widget';
import { lazy, type Ref, Suspense, useEffect, useRef, useState } from 'react';

const WidgetSettingsForm = lazy(() =>
  import('./widget-settings-form').then((module) => ({ default: module.WidgetSettingsForm })),
);

/**
 * Whether the element has come within a viewport's height below the visible part of the page
 * (or into it): the moment to start loading what it will show, so that it is there when reached.
 */
function useNear() {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '0px 0px 100% 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [box, near] as const;
}

/**
 * What stands in the form's place until its code is there, without any control. Shorter than the
 * form (2,500 px at 1280 wide): nothing follows it, so the form's arrival moves nothing on screen.
 */
function Placeholder({ box }: { box?: Ref<HTMLDivElement> }) {
  return (
    <div
      ref={box}
      aria-busy="true"
      className="grid min-h-96 content-start rounded-xl border border-dashed p-6 text-muted-foreground text-sm"
    >
      Loading the widget settings…
    </div>
  );
}

/**
 * The widget settings form, its code (the form, its check, react-hook-form: about 24 KB of gzip)
 * loaded when the page is scrolled near it (decision 091, hweb3). It sits about 2,100 px down at
 * 1280 px wide, far below the first paint. It is not rendered on the server: until its code is
 * there, the page shows a placeholder without any control, so nothing can be typed or clicked that
 * the form would not handle (the race a server-rendered form waiting for its code would have).
 */
export function LazyWidgetSettingsForm(props: { widget: TWidgetSettings; previewSrc: string }) {
  const [box, near] = useNear();
  if (!near) return <Placeholder box={box} />;
  return (
    <Suspense fallback={<Placeholder />}>
      <WidgetSettingsForm {...props} />
    </Suspense>
  );
}
