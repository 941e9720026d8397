import { MODES, THEMES } from '../lib/theme';
import { MonitorIcon, MoonIcon, PaletteIcon, SunIcon } from './icons';
import { useTheme } from './theme-menu-state';
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

/** Stand-alone Radix theme menu (the public pages use the lighter PublicThemeMenu). */
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
