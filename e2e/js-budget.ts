/**
 * Issue 13's budgets for the JavaScript a page makes the browser fetch before it is usable, in gzip
 * bytes: the test (`js-budget.spec.ts`) holds every page to them, the web bench prints them.
 */
export const LOGIN_JS_BUDGET = 100 * 1024;
export const SIGNED_IN_JS_BUDGET = 160 * 1024;

/** Every script and module preload the page's HTML makes the browser fetch before hydrating. */
export function scriptsOf(html: string): string[] {
  const js = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]!);
  // React Router's entry imports (inline module script) are also preloaded above; catch any extra.
  for (const m of html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)) js.add(m[1]!);
  return [...js];
}
