import { CircleAlertIcon } from './icons';
import { Alert, AlertDescription } from './ui/alert';

/** The form-level message (a plain error from the API, specification §5). */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="destructive" data-form-error>
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
