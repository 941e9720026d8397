import { renderMarkdown } from '../chat/markdown';

/**
 * A passage's markdown as a person reads it (headings, lists, emphasis, tables), not as raw `#`
 * and `*`. Safe as answers are (../chat/markdown builds elements, never HTML): HTML shows as
 * text, images as their alt text, only http(s) and mailto links, opening outside.
 */
export function PassageMarkdown({ text }: { text: string }) {
  return (
    <div className="min-w-0 space-y-2 text-sm leading-relaxed wrap-anywhere [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_h4]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-5">
      {renderMarkdown(text, {
        link: (href, children, key) => (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {children}
          </a>
        ),
        image: (alt, key) => (
          <span key={key} className="text-muted-foreground">
            [image{alt ? `: ${alt}` : ''}]
          </span>
        ),
      })}
    </div>
  );
}
