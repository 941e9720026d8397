import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

/** Tabs as the server renders them (the keyboard is the api-keys e2e's). */
const html = renderToStaticMarkup(
  <Tabs defaultValue="b">
    <TabsList aria-label="Language">
      <TabsTrigger value="a">A</TabsTrigger>
      <TabsTrigger value="b">B</TabsTrigger>
    </TabsList>
    <TabsContent value="a">Panel A</TabsContent>
    <TabsContent value="b">Panel B</TabsContent>
  </Tabs>,
);

/** Each element of a role: its attributes and its text. */
function byRole(role: string) {
  return [...html.matchAll(new RegExp(`<(\\w+)([^>]*role="${role}"[^>]*)>(.*?)</\\1>`, 'g'))].map((m) => {
    const attrs = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]),
    );
    return { attrs, text: m[3] };
  });
}

describe('Tabs', () => {
  it('marks the default tab selected, the only tab stop of its list', () => {
    expect(byRole('tablist')[0]?.attrs['aria-label']).toBe('Language');
    expect(
      byRole('tab').map((t) => [t.text, t.attrs['aria-selected'], t.attrs.tabindex, t.attrs.type]),
    ).toEqual([
      ['A', 'false', '-1', 'button'],
      ['B', 'true', '0', 'button'],
    ]);
  });

  it('renders only the selected panel, named by its tab, which controls it', () => {
    const panels = byRole('tabpanel');
    expect(panels.map((p) => p.text)).toEqual(['Panel B']);
    const tab = byRole('tab')[1]?.attrs;
    expect(tab?.['aria-controls']).toBe(panels[0]?.attrs.id);
    expect(panels[0]?.attrs['aria-labelledby']).toBe(tab?.id);
    expect(panels[0]?.attrs.tabindex).toBe('0');
  });
});
