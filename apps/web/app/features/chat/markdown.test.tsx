import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

const html = (text: string) =>
  renderToStaticMarkup(
    <div>
      {renderMarkdown(text, {
        link: (href, children, key) => (
          <a key={key} href={href}>
            {children}
          </a>
        ),
        image: (alt, key) => <span key={key}>[image: {alt}]</span>,
      })}
    </div>,
  ).slice('<div>'.length, -'</div>'.length);

describe('renderMarkdown', () => {
  it('shows raw HTML as text, never as elements', () => {
    expect(html('Paths with the prefix <MIME> are typed.')).toBe(
      '<p>Paths with the prefix &lt;MIME&gt; are typed.</p>',
    );
    expect(html('<script>alert(3)</script>\n\n<img src=x onerror=alert(4)>')).toBe(
      '<p>&lt;script&gt;alert(3)&lt;/script&gt;</p><p>&lt;img src=x onerror=alert(4)&gt;</p>',
    );
    expect(html('Parrots say <b>hello</b>')).toBe('<p>Parrots say &lt;b&gt;hello&lt;/b&gt;</p>');
  });

  it('links only safe addresses', () => {
    expect(html('[x](javascript:alert(1))')).toBe('<p>x</p>');
    expect(html('[x](JaVaScRiPt:alert(1))')).toBe('<p>x</p>');
    expect(html('[x](data:text/html,hi)')).toBe('<p>x</p>');
    expect(html('[the bundle](https://example.com/a_(b))')).toBe(
      '<p><a href="https://example.com/a_(b)">the bundle</a></p>',
    );
    expect(html('<https://example.com/x>')).toBe(
      '<p><a href="https://example.com/x">https://example.com/x</a></p>',
    );
    expect(html('see https://example.com/a.b, then')).toBe(
      '<p>see <a href="https://example.com/a.b">https://example.com/a.b</a>, then</p>',
    );
    expect(html('![a cat](https://example.com/cat.png)')).toBe('<p><span>[image: a cat]</span></p>');
    expect(html('[1](#cite-1)')).toBe('<p><a href="#cite-1">1</a></p>');
  });

  it('renders inline formatting, leaving identifiers with underscores alone', () => {
    expect(html('**bold** *em* _em_ ~~del~~ `a <b>` ERROR_NOT_FOUND_X')).toBe(
      '<p><strong>bold</strong> <em>em</em> <em>em</em> <del>del</del> <code>a &lt;b&gt;</code> ERROR_NOT_FOUND_X</p>',
    );
    expect(html('2 * 3 * 4 and \\*literal\\* &amp; &#39;')).toBe(
      '<p>2 * 3 * 4 and *literal* &amp; &#x27;</p>',
    );
  });

  it('renders blocks: headings, code, quotes, lists, tables, rules', () => {
    expect(html('# One\n\n## Two\n\nText\n---')).toBe('<h1>One</h1><h2>Two</h2><h2>Text</h2>');
    expect(html('```sh\nls <dir>\n\n  x\n```')).toBe(
      '<pre><code class="language-sh">ls &lt;dir&gt;\n\n  x</code></pre>',
    );
    expect(html('> quoted **text**\nlazy')).toBe(
      '<blockquote><p>quoted <strong>text</strong>\nlazy</p></blockquote>',
    );
    expect(html('- a\n- b\n  - c\n- d')).toBe(
      '<ul><li><span>a</span></li><li><span>b</span><ul><li><span>c</span></li></ul></li><li><span>d</span></li></ul>',
    );
    expect(html('3. three\n4. four')).toBe(
      '<ol start="3"><li><span>three</span></li><li><span>four</span></li></ol>',
    );
    expect(html('| a | b |\n|---|:-:|\n| 1 | 2 |')).toBe(
      '<div class="overflow-x-auto"><table><thead><tr><th>a</th><th style="text-align:center">b</th></tr></thead><tbody><tr><td>1</td><td style="text-align:center">2</td></tr></tbody></table></div>',
    );
    expect(html('a\n\n***\n\nb')).toBe('<p>a</p><hr/><p>b</p>');
  });
});
