import { expect, test } from './fixtures';
import { shoot } from './look';

/**
 * Icons are `<svg><use href="/assets/icons-….svg#name"/></svg>` (decision 107): what could go wrong
 * is invisible in the HTML (a sprite that does not load, a symbol that is not in it, a style that
 * hides the strokes), so this looks at what Chromium drew.
 */
for (const theme of ['gray.light', 'gray.dark']) {
  test(`every icon of a signed-in page is drawn from the sprite (${theme})`, async ({
    page,
    ownerWithApplication,
  }) => {
    const { app } = await ownerWithApplication(`icons-${theme.replace('.', '-')}`, 'Icon desk', { theme });
    await page.goto(`/applications/${app.uuid}`);
    const uses = page.locator('svg.lucide > use');
    expect(await uses.count()).toBeGreaterThan(10);

    // A `<use>` whose symbol did not load has an empty box (so has one of a hidden button: the
    // narrow screen's menu).
    await expect
      .poll(() =>
        uses.evaluateAll((all) =>
          all
            .filter((u) => u.parentElement!.checkVisibility() && (u as SVGUseElement).getBBox().width === 0)
            .map((u) => u.getAttribute('href')),
        ),
      )
      .toEqual([]);

    // Strokes in the text's colour, lucide's width; no fill unless a class asks for one.
    const home = page.getByRole('link', { name: 'Analytics', exact: true }).locator('svg.lucide');
    const style = await home.evaluate((svg) => {
      const s = getComputedStyle(svg);
      return {
        stroke: s.stroke,
        color: s.color,
        fill: s.fill,
        width: s.strokeWidth,
        box: svg.getBoundingClientRect().width,
      };
    });
    expect(style).toMatchObject({ stroke: style.color, fill: 'none', width: '2px' });
    expect(style.box).toBeGreaterThan(8);

    const sprite = await page.request.get((await uses.first().getAttribute('href'))!.replace(/#.*/, ''));
    expect(sprite.headers()['content-type']).toContain('image/svg+xml');
    expect(sprite.headers()['cache-control']).toContain('immutable');
    await shoot(page, 'icons-overview');
    // A phone's width: the menu button's icon shows.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.locator('svg.lucide > use[href$="#menu"]')).toBeVisible();
    await shoot(page, 'icons-overview');
  });
}
