import { use } from 'react';

/**
 * A module loaded on first use (issue 13: dialogs, menus and toasts are not part of a page's first
 * load). `useModule` suspends until the module is there; afterwards React knows the promise as
 * fulfilled and answers at once, so the parts of one widget suspend once, not once each. `use` is
 * called every time, never skipped once loaded: React replays a suspended component and expects
 * the same calls (skipping it broke the hook order, React error 467).
 */
export function lazyModule<M>(load: () => Promise<M>) {
  let pending: Promise<M> | undefined;
  const preload = (): Promise<M> => {
    pending ??= load();
    return pending;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: lazyModule is called once per module at module level, never during a render
  const useModule = (): M => use(preload());
  return { preload, useModule };
}

/**
 * The props of what opens a module loaded on first use (a dialog's button, a search form): pointing
 * at it or focusing it starts the load, so the module is there by the click or the key press.
 */
export function preloadOnIntent(module: { preload: () => unknown }) {
  const preload = () => void module.preload();
  return { onPointerEnter: preload, onFocus: preload };
}
