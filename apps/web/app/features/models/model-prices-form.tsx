import type { TProviderModel } from '@cairn/contracts/model-providers';
import { useFetcher } from 'react-router';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import type { ModelsActionData } from './models-action.server';

/**
 * What the owner pays per million input and output tokens of a text model, in their currency: the
 * analytics estimate the cost of answers with it (decision 066). A blank field is "not entered".
 */
export function ModelPricesForm({ providerId, model }: { providerId: string; model: TProviderModel }) {
  const fetcher = useFetcher<ModelsActionData>({ key: `prices-${model.uuid}` });
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.errors : null;
  const error =
    errors?.fieldErrors.input_price_per_million ??
    errors?.fieldErrors.output_price_per_million ??
    errors?.formError;
  const saved = fetcher.state === 'idle' && fetcher.data?.ok === true;
  const id = `prices-${model.uuid}`;
  const field = (name: 'input' | 'output', label: string) => (
    <div className="grid gap-1">
      <label htmlFor={`${id}-${name}`} className="text-xs text-muted-foreground">
        {label}
      </label>
      <Input
        id={`${id}-${name}`}
        name={`${name}_price_per_million`}
        type="number"
        inputMode="decimal"
        min={0}
        max={1_000_000}
        step="any"
        placeholder="–"
        defaultValue={model[`${name}_price_per_million`] ?? ''}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        className="h-8 w-28"
      />
    </div>
  );
  return (
    <fetcher.Form method="post" aria-label={`Prices of ${model.name}`} className="grid gap-1">
      <input type="hidden" name="intent" value="set-prices" />
      <input type="hidden" name="providerId" value={providerId} />
      <input type="hidden" name="modelId" value={model.uuid} />
      <div className="flex flex-wrap items-end gap-2">
        {field('input', 'Input per 1M tokens')}
        {field('output', 'Output per 1M tokens')}
        <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== 'idle'}>
          Save prices
        </Button>
        {saved ? (
          <span role="status" className="text-xs text-muted-foreground">
            Saved
          </span>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
