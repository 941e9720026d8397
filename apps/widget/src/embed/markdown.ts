import type { TSource } from '@cairn/contracts/chat';
import { CITE_HREF_PREFIX, linkCitations } from '@cairn/contracts/citations';
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Raw HTML in a message is text someone wrote or quoted: it is shown as written. Images are never
 * loaded (no request leaves for an address a model or a document chose): their alt text is shown.
 */
const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => `<span class="img-alt">[image${text ? `: ${escapeHtml(text)}` : ''}]</span>`,
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && !node.getAttribute('href')?.startsWith(CITE_HREF_PREFIX)) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});
const PURIFY_OPTIONS = { FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select'] };

/**
 * A message's markdown as sanitised HTML. With `sources`, `[n]` citations become buttons
 * (`data-cite="n"`) that the chat opens; a citation with no such source stays plain text.
 */
export function renderMarkdown(text: string, sources: TSource[] | null): string {
  const html = marked.parse(sources ? linkCitations(text) : text, { async: false });
  const fragment = purify.sanitize(html, { ...PURIFY_OPTIONS, RETURN_DOM_FRAGMENT: true });
  for (const link of Array.from(fragment.querySelectorAll(`a[href^="${CITE_HREF_PREFIX}"]`))) {
    const n = Number(link.getAttribute('href')!.slice(CITE_HREF_PREFIX.length));
    const source = sources?.find((s) => s.index === n);
    let replacement: HTMLElement;
    if (source) {
      replacement = document.createElement('button');
      replacement.setAttribute('type', 'button');
      replacement.className = 'cite';
      replacement.dataset.cite = String(n);
      replacement.setAttribute('aria-label', `Source ${n}: ${source.item_title}`);
      replacement.textContent = String(n);
    } else {
      replacement = document.createElement('sup');
      replacement.textContent = `[${n}]`;
    }
    link.replaceWith(replacement);
  }
  const holder = document.createElement('div');
  holder.appendChild(fragment);
  return holder.innerHTML;
}
