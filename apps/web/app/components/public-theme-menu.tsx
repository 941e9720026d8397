import { Form, useLocation, useRouteLoaderData } from 'react-router';
import { DEFAULT_THEME, MODES, THEMES, type ThemePrefs } from '../lib/theme';
import { cn } from '../lib/utils';
import { CircleIcon, PaletteIcon } from './icons';
import { buttonVariants } from './ui/button';

const THEME_LABEL = { gray: 'Gray', blue: 'Blue', violet: 'Violet' } as const;
const MODE_LABEL = { light: 'Light', dark: 'Dark', system: 'System' } as const;

const choiceClass =
  'relative flex w-full items-center gap-2 rounded-sm py-1 pr-2 pl-8 text-left hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:font-medium';

/** The dot before the current choice, as the signed-in pages' menu marks it (a Radix radio item). */
function Current({ on }: { on: boolean }) {
  return (
    <span className="pointer-events-none absolute left-2 flex size-3.5 items-center justify-center">
      {on ? <CircleIcon className="size-2 fill-current" aria-hidden="true" data-current /> : null}
    </span>
  );
}

/**
 * Theme picker of the public pages, which ship no JavaScript: a native disclosure holding a form
 * that posts the choice to /theme, which stores it and sends the browser back to this page.
 */
export function PublicThemeMenu() {
  const root = useRouteLoaderData('root') as { theme: ThemePrefs } | undefined;
  const prefs = root?.theme ?? DEFAULT_THEME;
  const location = useLocation();
  return (
    <details className="group relative">
      <summary
        className={cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'cursor-pointer list-none [&::-webkit-details-marker]:hidden',
        )}
      >
        <PaletteIcon aria-hidden="true" />
        <span className="sr-only">Theme</span>
      </summary>
      <Form
        method="post"
        action="/theme"
        className="absolute right-0 z-50 mt-1 grid w-44 gap-3 rounded-md border bg-popover p-3 text-sm text-popover-foreground shadow-md"
      >
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <fieldset className="grid gap-0.5">
          <legend className="mb-1 font-medium">Theme</legend>
          {THEMES.map((t) => (
            <button
              key={t}
              type="submit"
              name="theme"
              value={t}
              aria-pressed={prefs.theme === t}
              className={choiceClass}
            >
              <Current on={prefs.theme === t} />
              <span
                aria-hidden="true"
                className="size-3 rounded-full border"
                style={{ background: t === 'gray' ? '#52525b' : t === 'blue' ? '#2563eb' : '#7c3aed' }}
              />
              {THEME_LABEL[t]}
            </button>
          ))}
        </fieldset>
        <fieldset className="grid gap-0.5">
          <legend className="mb-1 font-medium">Mode</legend>
          {MODES.map((m) => (
            <button
              key={m}
              type="submit"
              name="mode"
              value={m}
              aria-pressed={prefs.mode === m}
              className={choiceClass}
            >
              <Current on={prefs.mode === m} />
              {MODE_LABEL[m]}
            </button>
          ))}
        </fieldset>
      </Form>
    </details>
  );
}
