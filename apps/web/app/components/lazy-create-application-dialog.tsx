import { type ComponentProps, lazy, Suspense, useState } from 'react';

const Dialog = lazy(() =>
  import('./create-application-dialog').then((m) => ({ default: m.CreateApplicationDialog })),
);

/**
 * "Create application", loaded when first opened (its form and knowledge fields are not part of a
 * page's first load, issue 13); kept mounted afterwards so closing animates and returns focus.
 */
export function LazyCreateApplicationDialog(props: ComponentProps<typeof Dialog>) {
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
