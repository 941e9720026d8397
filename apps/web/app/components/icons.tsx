import type { SVGProps } from 'react';
import sprite from './icons.svg?url&no-inline';

/**
 * The web app's icons: lucide's drawings, kept once in a sprite file (`icons.svg`, built from
 * lucide-react by `npm run icons -w @cairn/web`), each drawn as `<svg><use href="…#name"/></svg>`.
 * Lucide's own components write every path and ten attributes into each icon of each page: on a
 * signed-in page 40 % of the HTML's elements, rendered again on every request (decision 107). The
 * attributes lucide sets are the `.lucide` rule of app.css, where a utility class still overrides
 * them (`size-4`, `fill-current`).
 *
 * An icon is decorative (hidden from assistive technology) unless it is given a label.
 * To add one: a line below with lucide's name for it, then `npm run icons -w @cairn/web`.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

function spriteIcon(name: string) {
  // biome-ignore lint/correctness/noComponentHookFactories: called once per icon when this module loads, never in a render
  function Icon({ className, ...props }: IconProps) {
    const labelled = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined;
    return (
      // biome-ignore lint/a11y/noSvgWithoutTitle: hidden unless labelled (aria-label or aria-labelledby)
      <svg
        className={className ? `lucide ${className}` : 'lucide'}
        {...(labelled ? { role: 'img' } : { 'aria-hidden': true })}
        {...props}
      >
        <use href={`${sprite}#${name}`} />
      </svg>
    );
  }
  Icon.displayName = `Icon(${name})`;
  return Icon;
}

export const BellIcon = spriteIcon('bell');
export const BellRingIcon = spriteIcon('bell-ring');
export const BookOpenIcon = spriteIcon('book-open');
export const BookPlusIcon = spriteIcon('book-plus');
export const BotIcon = spriteIcon('bot');
export const BoxIcon = spriteIcon('box');
export const ChartColumnIcon = spriteIcon('chart-column');
export const CheckCheckIcon = spriteIcon('check-check');
export const CheckIcon = spriteIcon('check');
export const ChevronDownIcon = spriteIcon('chevron-down');
export const ChevronRightIcon = spriteIcon('chevron-right');
export const ChevronsUpDownIcon = spriteIcon('chevrons-up-down');
export const CircleAlertIcon = spriteIcon('circle-alert');
export const CircleCheckBigIcon = spriteIcon('circle-check-big');
export const CircleCheckIcon = spriteIcon('circle-check');
export const CircleDashedIcon = spriteIcon('circle-dashed');
export const CircleDotIcon = spriteIcon('circle-dot');
export const CircleHelpIcon = spriteIcon('circle-help');
export const CircleIcon = spriteIcon('circle');
export const CircleSlashIcon = spriteIcon('circle-slash');
export const CircleXIcon = spriteIcon('circle-x');
export const CopyIcon = spriteIcon('copy');
export const CpuIcon = spriteIcon('cpu');
export const DownloadIcon = spriteIcon('download');
export const EllipsisIcon = spriteIcon('ellipsis');
export const ExternalLinkIcon = spriteIcon('external-link');
export const EyeIcon = spriteIcon('eye');
export const EyeOffIcon = spriteIcon('eye-off');
export const FileJsonIcon = spriteIcon('file-json');
export const FileTextIcon = spriteIcon('file-text');
export const FileUpIcon = spriteIcon('file-up');
export const GlobeIcon = spriteIcon('globe');
export const HandIcon = spriteIcon('hand');
export const HomeIcon = spriteIcon('home');
export const HourglassIcon = spriteIcon('hourglass');
export const InboxIcon = spriteIcon('inbox');
export const KeyRoundIcon = spriteIcon('key-round');
export const LayoutDashboardIcon = spriteIcon('layout-dashboard');
export const LayoutGridIcon = spriteIcon('layout-grid');
export const ListIcon = spriteIcon('list');
export const LoaderCircleIcon = spriteIcon('loader-circle');
export const LogOutIcon = spriteIcon('log-out');
export const MailCheckIcon = spriteIcon('mail-check');
export const MailIcon = spriteIcon('mail');
export const MenuIcon = spriteIcon('menu');
export const MessageSquareIcon = spriteIcon('message-square');
export const MessageSquarePlusIcon = spriteIcon('message-square-plus');
export const MessageSquareQuoteIcon = spriteIcon('message-square-quote');
export const MessagesSquareIcon = spriteIcon('messages-square');
export const MonitorIcon = spriteIcon('monitor');
export const MoonIcon = spriteIcon('moon');
export const PaletteIcon = spriteIcon('palette');
export const PauseIcon = spriteIcon('pause');
export const PencilIcon = spriteIcon('pencil');
export const PlayIcon = spriteIcon('play');
export const PlugIcon = spriteIcon('plug');
export const PlugZapIcon = spriteIcon('plug-zap');
export const PlusIcon = spriteIcon('plus');
export const RefreshCwIcon = spriteIcon('refresh-cw');
export const RotateCcwIcon = spriteIcon('rotate-ccw');
export const RotateCwIcon = spriteIcon('rotate-cw');
export const ScanTextIcon = spriteIcon('scan-text');
export const SearchIcon = spriteIcon('search');
export const SearchXIcon = spriteIcon('search-x');
export const SendIcon = spriteIcon('send');
export const ShieldXIcon = spriteIcon('shield-x');
export const SmartphoneIcon = spriteIcon('smartphone');
export const SquareIcon = spriteIcon('square');
export const SquarePenIcon = spriteIcon('square-pen');
export const SunIcon = spriteIcon('sun');
export const TextIcon = spriteIcon('text');
export const ThumbsDownIcon = spriteIcon('thumbs-down');
export const ThumbsUpIcon = spriteIcon('thumbs-up');
export const Trash2Icon = spriteIcon('trash-2');
export const TriangleAlertIcon = spriteIcon('triangle-alert');
export const UploadIcon = spriteIcon('upload');
export const UserRoundIcon = spriteIcon('user-round');
export const WebhookIcon = spriteIcon('webhook');
export const XIcon = spriteIcon('x');
