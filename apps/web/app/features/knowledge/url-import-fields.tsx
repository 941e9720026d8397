import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge-limits';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';

/** How much of a site a URL item brings in: `crawl_depth` levels, a whole-site crawl, or a sitemap. */
export type UrlScope = '0' | '1' | '2' | 'site' | 'sitemap';

export interface UrlImport {
  scope: UrlScope;
  /** Hours between checks, or '' for never. */
  refresh: string;
  maxPages: string;
  include: string;
  exclude: string;
}

export const NEW_URL_IMPORT: UrlImport = {
  scope: '0',
  refresh: '',
  maxPages: '100',
  include: '',
  exclude: '',
};

/** The choices of "Keep it fresh"; the API takes any whole number of hours from 1 to 720. */
export const REFRESH_CHOICES = [
  ['', 'Never (re-sync by hand)'],
  ['1', 'Every hour'],
  ['24', 'Every day'],
  ['168', 'Every week'],
  ['720', 'Every 30 days'],
] as const;

const PATH_FILTERS = [
  ['include', 'Only paths', 'Globs such as /docs/**; empty: all.', '/docs/**'],
  ['exclude', 'Except paths', 'Separate several with commas.', '/blog/**'],
] as const;

export const SELECT =
  'h-9 w-full max-w-xs rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40';

/** Path globs typed one per line or separated by commas. */
const globs = (text: string) =>
  text
    .split(/[\n,]/)
    .map((glob) => glob.trim())
    .filter(Boolean);

/** Writes the choices as the API's multipart fields of item 0. */
export function appendUrlImport(body: FormData, value: UrlImport) {
  if (value.refresh) body.set('items[0].refresh_interval_hours', value.refresh);
  if (value.scope === 'site' || value.scope === 'sitemap') {
    const maxPages = Number(value.maxPages);
    body.set(
      'items[0].crawl',
      JSON.stringify({
        max_pages: Number.isInteger(maxPages) ? maxPages : value.maxPages,
        include: globs(value.include),
        exclude: globs(value.exclude),
      }),
    );
    if (value.scope === 'sitemap') body.set('items[0].sitemap', 'true');
  } else body.set('items[0].crawl_depth', value.scope);
}

/** "Linked pages" (up to a whole site or a sitemap, with its limits) and "Keep it fresh". */
export function UrlImportFields({
  id,
  value,
  onChange,
  errors,
}: {
  id: string;
  value: UrlImport;
  onChange: (value: UrlImport) => void;
  errors: Record<string, string | undefined>;
}) {
  const set = (patch: Partial<UrlImport>) => onChange({ ...value, ...patch });
  const site = value.scope === 'site' || value.scope === 'sitemap';
  return (
    <>
      <Field
        id={`${id}-crawl`}
        label="Linked pages"
        description={
          site
            ? 'Pages of the same site only, as its robots.txt allows; each page becomes an item, grouped under this one.'
            : `Pages of the same site linked from it are added as items too (at most ${KNOWLEDGE_LIMITS.crawlPages}).`
        }
        error={errors['items[0].crawl_depth'] ?? errors['items[0].sitemap']}
      >
        {(aria) => (
          <select
            {...aria}
            value={value.scope}
            onChange={(e) => set({ scope: e.target.value as UrlScope })}
            className={SELECT}
          >
            <option value="0">Only this page</option>
            <option value="1">This page and the pages it links to</option>
            <option value="2">Two levels of links</option>
            <option value="site">Import the whole site</option>
            <option value="sitemap">It is a sitemap (sitemap.xml)</option>
          </select>
        )}
      </Field>
      {site ? (
        <fieldset className="grid gap-4 rounded-lg border p-3 sm:grid-cols-3">
          <legend className="px-1 font-medium text-sm">Which pages</legend>
          <Field
            id={`${id}-max-pages`}
            label="At most"
            description={`Pages, 1 to ${KNOWLEDGE_LIMITS.sitePagesMax}.`}
            error={errors['items[0].crawl']}
          >
            {(aria) => (
              <Input
                {...aria}
                type="number"
                inputMode="numeric"
                min={1}
                max={KNOWLEDGE_LIMITS.sitePagesMax}
                value={value.maxPages}
                onChange={(e) => set({ maxPages: e.target.value })}
              />
            )}
          </Field>
          {PATH_FILTERS.map(([key, label, description, placeholder]) => (
            <Field key={key} id={`${id}-${key}`} label={label} description={description}>
              {(aria) => (
                <Input
                  {...aria}
                  placeholder={placeholder}
                  value={value[key]}
                  onChange={(e) => set({ [key]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </fieldset>
      ) : null}
      <Field
        id={`${id}-refresh`}
        label="Keep it fresh"
        description={
          value.refresh
            ? `Checked for changes on this schedule${site ? ' (every page of the site)' : ''}; re-indexed only when it changed.`
            : 'Checked again only when you re-sync it.'
        }
        error={errors['items[0].refresh_interval_hours']}
      >
        {(aria) => (
          <select
            {...aria}
            value={value.refresh}
            onChange={(e) => set({ refresh: e.target.value })}
            className={SELECT}
          >
            {REFRESH_CHOICES.map(([hours, label]) => (
              <option key={hours} value={hours}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
