import { PaletteIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { MODES, THEMES } from '../lib/theme';
import { useTheme } from './theme-menu-state';
import { Button } from './ui/button';

const THEME_LABEL = { gray: 'Gray', blue: 'Blue', violet: 'Violet' } as const;
const MODE_LABEL = { light: 'Light', dark: 'Dark', system: 'System' } as const;

/**
 * Theme picker of the public pages: a disclosure with native radio groups. Deliberately not the
 * Radix menu of the signed-in sidebar, so the sign-in page ships no popper/menu code (bench: /login JS).
 */
export function PublicThemeMenu() {
  const { prefs, set } = useTheme();
  // The radios follow the click at once; the saved choice (cookie) catches up a moment later.
  const [choice, setChoice] = useState(prefs);
  useEffect(() => setChoice({ theme: prefs.theme, mode: prefs.mode }), [prefs.theme, prefs.mode]);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        aria-label="Theme"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <PaletteIcon aria-hidden="true" />
      </Button>
      {open ? (
        <div
          id={panelId}
          className="absolute right-0 z-50 mt-1 grid w-44 gap-3 rounded-md border bg-popover p-3 text-sm text-popover-foreground shadow-md"
        >
          <fieldset className="grid gap-1.5">
            <legend className="mb-1 font-medium">Theme</legend>
            {THEMES.map((t) => (
              <label key={t} className="flex cursor-pointer items-center gap-2">
                <input
                  type="radio"
                  name="public-theme"
                  value={t}
                  checked={choice.theme === t}
                  onChange={() => {
                    setChoice((c) => ({ ...c, theme: t }));
                    set({ theme: t });
                  }}
                  className="accent-primary"
                />
                {THEME_LABEL[t]}
              </label>
            ))}
          </fieldset>
          <fieldset className="grid gap-1.5">
            <legend className="mb-1 font-medium">Mode</legend>
            {MODES.map((m) => (
              <label key={m} className="flex cursor-pointer items-center gap-2">
                <input
                  type="radio"
                  name="public-mode"
                  value={m}
                  checked={choice.mode === m}
                  onChange={() => {
                    setChoice((c) => ({ ...c, mode: m }));
                    set({ mode: m });
                  }}
                  className="accent-primary"
                />
                {MODE_LABEL[m]}
              </label>
            ))}
          </fieldset>
        </div>
      ) : null}
    </div>
  );
}
