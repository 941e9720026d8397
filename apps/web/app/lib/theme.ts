/** Themes (specification §2): a colour theme and a light/dark/system mode, kept in one cookie. */
export const THEMES = ['gray', 'blue', 'violet'] as const;
export const MODES = ['light', 'dark', 'system'] as const;
export type ThemeName = (typeof THEMES)[number];
export type ColorMode = (typeof MODES)[number];
export interface ThemePrefs {
  theme: ThemeName;
  mode: ColorMode;
}
export const DEFAULT_THEME: ThemePrefs = { theme: 'gray', mode: 'system' };

/** `theme=<colour>.<mode>`, e.g. `theme=violet.dark`. */
export const THEME_COOKIE = 'theme';

export const isTheme = (v: unknown): v is ThemeName => THEMES.includes(v as ThemeName);
export const isMode = (v: unknown): v is ColorMode => MODES.includes(v as ColorMode);

export function parseThemeCookie(value: string | undefined): ThemePrefs {
  const [theme, mode] = (value ?? '').split('.');
  return {
    theme: isTheme(theme) ? theme : DEFAULT_THEME.theme,
    mode: isMode(mode) ? mode : DEFAULT_THEME.mode,
  };
}
