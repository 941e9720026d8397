import { dialogModule } from './dialog';
import { livePart } from './lazy-root';

/** A dialog sliding in from the left: the phone-width sidebar drawer (loaded when first opened). */
export {
  Dialog as Sheet,
  DialogClose as SheetClose,
  DialogDescription as SheetDescription,
  DialogTitle as SheetTitle,
  DialogTrigger as SheetTrigger,
} from './dialog';
export const SheetContent = livePart(dialogModule, (m) => m.SheetContent);
