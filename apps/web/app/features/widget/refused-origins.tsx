import type { TRefusedOrigin } from '@cairn/contracts/widget';
import { ShieldXIcon } from '../../components/icons';
import { RelativeTime } from '../chat/relative-time';

const REASONS: Record<TRefusedOrigin['reason'], string> = {
  origin_not_allowed: 'not in the list above',
  disabled: 'the widget was off',
};

/**
 * Sites whose pages asked for the widget lately and were refused, with why: where the snippet is
 * pasted but draws nothing (a missing www., another port, the widget off). The site's developer
 * sees the same reason in the browser console.
 */
export function RefusedOrigins({ refused }: { refused: TRefusedOrigin[] }) {
  if (refused.length === 0) return null;
  return (
    <section className="grid min-w-0 gap-2" aria-labelledby="widget-refused-title">
      <h3 id="widget-refused-title" className="font-medium text-sm">
        Refused lately
      </h3>
      <p className="-mt-1 text-muted-foreground text-sm">
        These sites have the snippet but the widget showed nothing there. Add a site above if it should show
        it.
      </p>
      <ul className="grid min-w-0 divide-y rounded-lg border" aria-label="Refused sites">
        {refused.map((site) => (
          <li key={site.origin} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 px-3 py-2">
            <ShieldXIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="min-w-0 break-all font-mono text-sm">{site.origin}</span>
            <span className="text-muted-foreground text-sm">
              {REASONS[site.reason]} · <RelativeTime iso={site.last_refused_at} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
