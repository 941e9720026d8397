import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { toast } from '../../lib/toast';
import type { AccountActionData, AccountIntent } from './account.server';

/**
 * One form of the account page: its own fetcher and field errors; a toast says it worked, or why it
 * was refused when no field is to blame. `resetOnSuccess` empties the form (it holds passwords).
 */
export function useAccountForm(intent: AccountIntent, key: string = intent, resetOnSuccess = false) {
  const fetcher = useFetcher<AccountActionData>({ key: `account-${key}` });
  const formRef = useRef<HTMLFormElement>(null);
  const result = fetcher.data?.intent === intent ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      toast.success(result.message);
      if (resetOnSuccess) formRef.current?.reset();
    } else {
      if (result.errors.formError) toast.error(result.errors.formError);
      // Keyboard users land on what needs fixing.
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [result, resetOnSuccess]);
  const errors = result && !result.ok ? result.errors : null;
  return {
    fetcher,
    formRef,
    busy: fetcher.state !== 'idle',
    fieldError: (name: string) => errors?.fieldErrors[name],
  };
}
