import { Suspense, useEffect, useState } from 'react';
import type { ToasterProps } from 'sonner';
import { lazyModule } from './lazy-module';

/**
 * Toasts (sonner), loaded with the first toast (issue 13): `toast`, `toast.success` and `toast.error`
 * as sonner's, and <LazyToaster> in the root layout in place of sonner's <Toaster>.
 */
type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']>[0];
type Options = Parameters<Sonner['toast']>[1];

const sonner = lazyModule(() => import('sonner'));
let wanted = false;
let mountToaster: (() => void) | null = null;
let toasterMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});

function show(kind: 'message' | 'success' | 'error', message: Message, options?: Options) {
  wanted = true;
  mountToaster?.();
  void Promise.all([sonner.preload(), mounted]).then(([{ toast: t }]) => {
    if (kind === 'message') t(message, options);
    else t[kind](message, options);
  });
}

export const toast = Object.assign(
  (message: Message, options?: Options) => show('message', message, options),
  {
    success: (message: Message, options?: Options) => show('success', message, options),
    error: (message: Message, options?: Options) => show('error', message, options),
  },
);

/** Renders sonner's Toaster once something is toasted. */
export function LazyToaster(props: ToasterProps) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    mountToaster = () => setOn(true);
    if (wanted) setOn(true);
    return () => {
      mountToaster = null;
    };
  }, []);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}

function Toaster(props: ToasterProps) {
  const { Toaster: SonnerToaster } = sonner.useModule();
  // Runs after the Toaster's own effects: it listens for toasts from here on.
  useEffect(() => toasterMounted(), []);
  return <SonnerToaster {...props} />;
}
