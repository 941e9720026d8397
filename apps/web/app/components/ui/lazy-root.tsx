import {
  type ComponentProps,
  cloneElement,
  createContext,
  isValidElement,
  type JSXElementConstructor,
  type ReactElement,
  type ReactNode,
  Suspense,
  use,
  useState,
} from 'react';

/**
 * Radix widgets (dialogs, menus, popovers) whose code loads on first use (issue 13). Until then the
 * widget is "asleep": its trigger is a plain button that wakes it, its content (closed) renders
 * nothing. Woken, the real Radix parts render in place, opened.
 */
interface Live {
  live: boolean;
  wake: () => void;
  preload: () => void;
}

const LiveContext = createContext<Live>({ live: true, wake() {}, preload() {} });
const LIVE: Live = { live: true, wake() {}, preload() {} };

interface LazyModule<M> {
  preload: () => Promise<M>;
  useModule: () => M;
}

// biome-ignore lint/suspicious/noExplicitAny: any component type, its props are taken from it
type AnyComponent = JSXElementConstructor<any>;

/** The root: owns the open state until the real root takes over (then it is passed down controlled). */
export function LazyRoot<M>({
  module,
  open,
  defaultOpen = false,
  onOpenChange,
  render,
  children,
}: {
  module: LazyModule<M>;
  open?: boolean | undefined;
  defaultOpen?: boolean | undefined;
  onOpenChange?: ((open: boolean) => void) | undefined;
  render: (
    m: M,
    props: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode },
  ) => ReactNode;
  children?: ReactNode;
}) {
  const [own, setOwn] = useState(defaultOpen);
  const isOpen = open ?? own;
  const [awake, setAwake] = useState(isOpen);
  if (isOpen && !awake) setAwake(true);
  const change = (next: boolean) => {
    if (open === undefined) setOwn(next);
    onOpenChange?.(next);
  };
  const asleep = (
    <LiveContext value={{ live: false, wake: () => change(true), preload: () => void module.preload() }}>
      {children}
    </LiveContext>
  );
  if (!awake) return asleep;
  return (
    <Suspense fallback={asleep}>
      <AwakeRoot module={module} render={render} props={{ open: isOpen, onOpenChange: change, children }} />
    </Suspense>
  );
}

function AwakeRoot<M>({
  module,
  render,
  props,
}: {
  module: LazyModule<M>;
  render: (
    m: M,
    props: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode },
  ) => ReactNode;
  props: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode };
}) {
  const m = module.useModule();
  return <LiveContext value={LIVE}>{render(m, props)}</LiveContext>;
}

/** A part that exists only while the widget is awake (content, items, titles). */
export function livePart<M, C extends AnyComponent>(module: LazyModule<M>, pick: (m: M) => C) {
  // biome-ignore lint/correctness/noComponentHookFactories: livePart is called once per part at module level, never during a render
  function Awake(props: ComponentProps<C>) {
    const Component = pick(module.useModule());
    return <Component {...props} />;
  }
  // biome-ignore lint/correctness/noComponentHookFactories: livePart is called once per part at module level, never during a render
  return function Part(props: ComponentProps<C>) {
    return use(LiveContext).live ? <Awake {...props} /> : null;
  };
}

type TriggerProps = ComponentProps<'button'> & { asChild?: boolean };

/**
 * The trigger: the real one when awake; asleep, the same button, marked up as Radix would, that
 * wakes the widget the way Radix opens it (`click` for dialogs and popovers; `press` for menus:
 * pointer down, or Enter, Space, ArrowDown).
 */
export function liveTrigger<M, C extends AnyComponent>(
  module: LazyModule<M>,
  pick: (m: M) => C,
  popup: 'dialog' | 'menu',
  opensOn: 'click' | 'press',
) {
  const Awake = livePart(module, pick);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per trigger at module level, never during a render
  return function Trigger(props: ComponentProps<C> & TriggerProps) {
    const live = use(LiveContext);
    if (live.live) return <Awake {...props} />;
    const { asChild, children, ...rest } = props as TriggerProps;
    const child = asChild && isValidElement(children) ? (children as ReactElement<TriggerProps>) : null;
    const own: TriggerProps = { ...child?.props, ...rest };
    const chain =
      <E,>(a: ((e: E) => void) | undefined, b: (e: E) => void) =>
      (e: E) => {
        a?.(e);
        b(e);
      };
    const sleeping: TriggerProps & { 'data-state': 'closed' } = {
      type: 'button',
      'aria-haspopup': popup,
      'aria-expanded': false,
      ...own,
      'data-state': 'closed',
      onPointerEnter: chain(own.onPointerEnter, live.preload),
      onFocus: chain(own.onFocus, live.preload),
      ...(opensOn === 'click'
        ? { onClick: chain(own.onClick, (e) => !e.defaultPrevented && live.wake()) }
        : {
            onPointerDown: chain(own.onPointerDown, (e) => {
              if (e.button !== 0 || e.ctrlKey) return;
              e.preventDefault();
              live.wake();
            }),
            onKeyDown: chain(own.onKeyDown, (e) => {
              if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
              e.preventDefault();
              live.wake();
            }),
          }),
    };
    return child ? cloneElement(child, sleeping) : <button {...sleeping}>{children}</button>;
  };
}
