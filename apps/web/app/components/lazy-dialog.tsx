import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A controlled dialog whose code (its form, and the zod schemas and react-hook-form with it) loads
 * when it first opens, not with the page (issue 13, decision 091). Kept mounted afterwards so
 * closing animates and returns focus. `preload` starts the load early (a trigger's hover or focus),
 * so the first click rarely waits.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>) {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    pending ??= load().then((component) => ({ default: component }));
    return pending;
  };
  const Dialog = lazy(preload) as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: lazyDialog is called once per dialog at module level, never during a render
  function LazyDialog(props: P) {
    const [used, setUsed] = useState(props.open);
    if (props.open && !used) setUsed(true);
    if (!used) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyDialog, { preload: () => void preload() });
}
