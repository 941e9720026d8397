import { MonitorIcon, MoonIcon, PaletteIcon, SunIcon } from 'lucide-react';
import { useFetcher, useRouteLoaderData } from 'react-router';
import { MODES, THEMES, type ThemePrefs } from '../lib/theme';
import { Button } from './ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './ui/dropdown-menu';

const THEME_LABEL = { gray: 'Gray', blue: 'Blue', violet: 'Violet' } as const;
const MODE_LABEL = { light: 'Light', dark: 'Dark', system: 'System' } as const;

/** Current prefs, with an in-flight change applied (the root layout does the same for <html>). */
export function useTheme() {
  const root = useRouteLoaderData('root') as { theme: ThemePrefs } | undefined;
  // One fetcher per setting: changing the mode right after the colour must not cancel the colour's post.
  const colorFetcher = useFetcher({ key: 'theme-color' });
  const modeFetcher = useFetcher({ key: 'theme-mode' });
  const current: ThemePrefs = root?.theme ?? { theme: 'gray', mode: 'system' };
  const pendingTheme = colorFetcher.formData?.get('theme');
  const pendingMode = modeFetcher.formData?.get('mode');
  const prefs: ThemePrefs = {
    theme: THEMES.find((t) => t === pendingTheme) ?? current.theme,
    mode: MODES.find((m) => m === pendingMode) ?? current.mode,
  };
  // Both settings are posted, the other one as currently shown (which includes an in-flight change),
  // so two quick changes cannot overwrite each other with a stale cookie.
  const set = (next: { theme: ThemePrefs['theme'] } | { mode: ThemePrefs['mode'] }) =>
    ('theme' in next ? colorFetcher : modeFetcher).submit(
      { ...prefs, ...next },
      { method: 'post', action: '/theme' },
    );
  return { prefs, set };
}

/** Radio groups for colour theme and mode, for use inside any DropdownMenuContent. */
export function ThemeMenuItems() {
  const { prefs, set } = useTheme();
  return (
    <>
      <DropdownMenuLabel>Theme</DropdownMenuLabel>
      <DropdownMenuRadioGroup
        value={prefs.theme}
        onValueChange={(v) => set({ theme: THEMES.find((t) => t === v) ?? 'gray' })}
      >
        {THEMES.map((t) => (
          <DropdownMenuRadioItem key={t} value={t} onSelect={(e) => e.preventDefault()}>
            <span
              aria-hidden="true"
              className="size-3 rounded-full border"
              style={{ background: t === 'gray' ? '#52525b' : t === 'blue' ? '#2563eb' : '#7c3aed' }}
            />
            {THEME_LABEL[t]}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
      <DropdownMenuSeparator />
      <DropdownMenuLabel>Mode</DropdownMenuLabel>
      <DropdownMenuRadioGroup
        value={prefs.mode}
        onValueChange={(v) => set({ mode: MODES.find((m) => m === v) ?? 'system' })}
      >
        {MODES.map((m) => (
          <DropdownMenuRadioItem key={m} value={m} onSelect={(e) => e.preventDefault()}>
            {m === 'light' ? (
              <SunIcon aria-hidden="true" />
            ) : m === 'dark' ? (
              <MoonIcon aria-hidden="true" />
            ) : (
              <MonitorIcon aria-hidden="true" />
            )}
            {MODE_LABEL[m]}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
    </>
  );
}

/** Stand-alone theme button (public pages). */
export function ThemeMenu() {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Theme">
          <PaletteIcon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-44">
        <ThemeMenuItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
