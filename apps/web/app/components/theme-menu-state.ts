import { useFetcher, useRouteLoaderData } from 'react-router';
import { MODES, THEMES, type ThemePrefs } from '../lib/theme';

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
