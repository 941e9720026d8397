import { Form, Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { cn } from '../../lib/utils';

export const RANGE_PRESETS = [7, 30, 90] as const;

/**
 * The page's range: the last 7, 30 or 90 days (links, so the range is in the address and the back
 * button), or any dates (a GET form). `active` is the preset shown, null for a custom range.
 */
export function RangePicker({
  active,
  from,
  to,
}: {
  active: (typeof RANGE_PRESETS)[number] | null;
  from: string;
  to: string;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end gap-4">
      <nav aria-label="Date range" className="inline-flex rounded-md border p-0.5">
        {RANGE_PRESETS.map((days) => (
          <Link
            key={days}
            to={`?days=${days}`}
            aria-current={active === days ? 'page' : undefined}
            className={cn(
              'rounded px-3 py-1.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring',
              active === days
                ? 'bg-primary text-primary-foreground'
                : 'text-muted-foreground hover:bg-accent',
            )}
          >
            {days} days
          </Link>
        ))}
      </nav>
      {/* Keyed by the range, so the inputs show the range the page shows after each navigation. */}
      <Form method="get" key={`${from}-${to}`} className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor="range-from">From</Label>
          <Input id="range-from" name="from" type="date" required defaultValue={from} className="w-40" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="range-to">To</Label>
          <Input id="range-to" name="to" type="date" required defaultValue={to} className="w-40" />
        </div>
        <Button type="submit" variant={active === null ? 'default' : 'outline'}>
          Show
        </Button>
      </Form>
    </div>
  );
}
