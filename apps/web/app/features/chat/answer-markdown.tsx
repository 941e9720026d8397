import type { TSource } from '@cairn/contracts/chat';
import { CITE_HREF_PREFIX, linkCitations } from '@cairn/contracts/citations';
import type { ComponentProps } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

/** The few mdast fields the plugin below reads (no dependency on mdast's own types). */
interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

/** Containers whose children are blocks: a raw HTML block there becomes a paragraph of text. */
const BLOCK_CONTAINERS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * Raw HTML in an answer is text someone wrote or quoted (`paths with the prefix <MIME>`, a
 * `<script>` from a web page): it is shown as written. Without this, markdown reads it as a tag,
 * the renderer drops it, and the sentence silently loses words.
 */
function remarkHtmlAsText() {
  const visit = (node: MarkdownNode) => {
    node.children = node.children?.map((child) => {
      if (child.type !== 'html') {
        visit(child);
        return child;
      }
      const text = { type: 'text', value: child.value ?? '' };
      return BLOCK_CONTAINERS.has(node.type) ? { type: 'paragraph', children: [text] } : text;
    });
  };
  return visit;
}

/**
 * An answer's markdown, rendered safely: HTML is shown as text (and the sanitiser still removes
 * anything unsafe markdown itself could produce), no images loaded (their alt text is shown
 * instead), links open outside. Citations become buttons that open the cited passage. Long words,
 * identifiers and URLs wrap; code blocks and tables scroll inside themselves.
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
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkHtmlAsText]}
        rehypePlugins={[rehypeSanitize]}
        components={{
          a({ href, children, node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) {
            const cite = href?.replace('#user-content-', '#');
            if (cite?.startsWith(CITE_HREF_PREFIX)) {
              const n = Number(cite.slice(CITE_HREF_PREFIX.length));
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
          table({ node: _node, ...props }: ComponentProps<'table'> & { node?: unknown }) {
            return (
              <div className="overflow-x-auto">
                <table {...props} />
              </div>
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
