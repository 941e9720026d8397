import { ScanTextIcon } from '../../components/icons';
import { Badge } from '../../components/ui/badge';

/**
 * Says that an item's text was read from images with OCR (a scanned PDF, a photo of a page), so
 * an owner who finds a misread word in an answer knows where it came from.
 */
export function ReadWithOcrBadge() {
  return (
    <Badge
      variant="outline"
      title="The text was read from images with OCR (text recognition): a word may be misread."
    >
      <ScanTextIcon aria-hidden="true" />
      Read with OCR
    </Badge>
  );
}
