import type { ReactNode } from 'react';
import { useRevalidator } from 'react-router';
import { CircleAlertIcon } from './icons';
import { Alert, AlertDescription, AlertTitle } from './ui/alert';
import { Button } from './ui/button';

/** What a page could not load, with a button that reads the page's data again. */
export function LoadErrorAlert({ message }: { message: ReactNode }) {
  const revalidator = useRevalidator();
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{message}</AlertTitle>
      <AlertDescription>
        <Button size="sm" variant="outline" className="mt-2" onClick={() => revalidator.revalidate()}>
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
