import type { TSource } from '@cairn/contracts/chat';
import type { ComponentProps } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const CITE = '#cite-';

/** A source's heading path without the item title it starts with (the title is shown beside it). */
export function headingOf(source: { heading: string | null; item_title: string }): string | null {
  const rest = (source.heading ?? '')
    .split(' › ')
    .filter((part) => part && part !== source.item_title)
    .join(' › ');
  return rest || null;
}

/** `[1]`, `[1, 2]` and `[1][2]` become links to `#cite-n`, outside code spans and fences. */
export function linkCitations(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g, (_, list: string) =>
            list
              .split(',')
              .map((n) => `[${n.trim()}](${CITE}${n.trim()})`)
              .join(''),
          ),
    )
    .join('');
}

/**
 * An answer's markdown, rendered safely: no raw HTML (sanitized), no images loaded (their alt text
 * is shown instead), links open outside. Citations become buttons that open the cited passage.
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
    <div className="space-y-2 break-words text-sm leading-relaxed [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.8rem] [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:w-full [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        components={{
          a({ href, children, node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) {
            const cite = href?.replace('#user-content-', '#');
            if (cite?.startsWith(CITE)) {
              const n = Number(cite.slice(CITE.length));
              const source = sources.find((s) => s.index === n);
              if (!source) return <sup className="text-muted-foreground">[{n}]</sup>;
              return (
                <button
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
              <a href={href} target="_blank" rel="noopener noreferrer nofollow" {...props}>
                {children}
              </a>
            );
          },
          img({ alt }) {
            return <span className="text-muted-foreground">[image{alt ? `: ${alt}` : ''}]</span>;
          },
        }}
      >
        {linkCitations(text)}
      </ReactMarkdown>
    </div>
  );
}
