import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One server-rendered page calls several API routes in process (decision 003), all as the same user
 * and mostly about the same application. Within one page, a lookup those calls share (the token, the
 * owner's application) runs once and its answer is shared by the page's later reads (decisions 106,
 * 109). A write runs without the memo and clears it: it may change what the reads would share
 * (a revoked token, a renamed application). The memo is an async-local value set by the in-process
 * caller only (`withPageMemo`): nothing a client sends can reach it.
 */
export type PageMemo = Map<string, Promise<unknown>>;
const pageMemo = new AsyncLocalStorage<PageMemo>();

/**
 * Runs one in-process API call of a page; `memo` is that page's own, shared by its reads (`read`: a
 * safe method). `call` may return a lazy thenable (`app.inject` starts on `then`): it is awaited
 * inside, in the memo's context.
 */
export function withPageMemo<T>(memo: PageMemo, read: boolean, call: () => PromiseLike<T>): Promise<T> {
  if (!read) {
    memo.clear();
    return pageMemo.exit(async () => await call());
  }
  return pageMemo.run(memo, async () => await call());
}

/** Whether this code runs in one of a page's in-process reads. */
export function onPage(): boolean {
  return pageMemo.getStore() !== undefined;
}

/** `load()`, or within a page's reads the promise an earlier call of the page got for `key`. */
export function oncePerPage<T>(key: string, load: () => Promise<T>): Promise<T> {
  const memo = pageMemo.getStore();
  if (!memo) return load();
  let found = memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = load();
    memo.set(key, found);
  }
  return found;
}
