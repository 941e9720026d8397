import type { TSource } from '@cairn/contracts/chat';
import { CITE_HREF_PREFIX, linkCitations } from '@cairn/contracts/citations';
import { renderMarkdown } from './markdown';

/**
 * An answer's markdown, rendered safely (./markdown builds elements, never HTML): HTML is shown as
 * text, no images loaded (their alt text is shown instead), only http(s) and mailto links, opening
 * outside. Citations become buttons that open the cited passage. Long words, identifiers and URLs
 * wrap; code blocks and tables scroll inside themselves.
 */
export function AnswerMarkdown({
  text,
  sources,
  onCite,
}: {
  text: string;
  sources: TSource[];
  onCite: (source: TSource) => void;
}) {
  return (
    <div className="min-w-0 space-y-2 text-sm leading-relaxed wrap-anywhere [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.8rem] [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:w-full [&_table]:wrap-normal [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
      {renderMarkdown(linkCitations(text), {
        link(href, children, key) {
          if (href.startsWith(CITE_HREF_PREFIX)) {
            const n = Number(href.slice(CITE_HREF_PREFIX.length));
            const source = sources.find((s) => s.index === n);
            if (!source)
              return (
                <sup key={key} className="text-muted-foreground">
                  [{n}]
                </sup>
              );
            return (
              <button
                key={key}
                type="button"
                onClick={() => onCite(source)}
                className="mx-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-primary/10 px-1.5 align-text-top text-[0.7rem] font-medium text-primary hover:bg-primary/20 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                aria-label={`Source ${n}: ${source.item_title}`}
              >
                {n}
              </button>
            );
          }
          return (
            <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          );
        },
        image(alt, key) {
          return (
            <span key={key} className="text-muted-foreground">
              [image{alt ? `: ${alt}` : ''}]
            </span>
          );
        },
      })}
    </div>
  );
}
