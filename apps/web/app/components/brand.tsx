import { Link } from 'react-router';
import { cn } from '../lib/utils';

/** The Cairn mark and name; links home. */
export function Brand({ className }: { className?: string }) {
  return (
    <Link to="/" className={cn('flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="7" className="fill-primary" />
        <path d="M9 23h14l-2-5H11zM12 17h8l-1.5-4h-5zM14 12h4l-1-3h-2z" className="fill-primary-foreground" />
      </svg>
      <span>Cairn</span>
    </Link>
  );
}
