import type {
  TModelProvider,
  TProviderModel,
  TTestConnectionResponse,
} from '@cairn/contracts/model-providers';
import {
  ZAddProviderModelRequest,
  ZCreateModelProviderRequest,
  ZUpdateModelProviderRequest,
  ZUpdateProviderModelRequest,
} from '@cairn/contracts/model-providers';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { type FormErrors, formErrorsOf } from '../../lib/api-error';

/**
 * The `/settings/models` action: one form per operation, told apart by `intent`. Every answer
 * names its intent and provider so each card shows only its own result.
 */
export type ModelsActionData =
  | {
      intent: 'create' | 'update' | 'delete' | 'add-model' | 'remove-model' | 'set-prices';
      providerId: string | null;
      ok: true;
      message: string;
    }
  | { intent: 'test'; providerId: string; ok: true; test: TTestConnectionResponse }
  | { intent: string; providerId: string | null; ok: false; errors: FormErrors };

const ZIntent = z.enum(['create', 'update', 'delete', 'test', 'add-model', 'remove-model', 'set-prices']);
const ZProviderId = z.uuid();

function fields(form: FormData): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') raw[key] = value;
  return raw;
}

/** A price field of the form: blank is "not entered" (null); anything else must read as a number. */
const priceOf = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? null : Number(value);

function invalid(intent: string, providerId: string | null, issues: z.core.$ZodIssue[]) {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.join('.');
    if (key && !fieldErrors[key]) fieldErrors[key] = issue.message;
  }
  return data<ModelsActionData>(
    { intent, providerId, ok: false, errors: { fieldErrors, formError: null } },
    { status: 400 },
  );
}

function failed(intent: string, providerId: string | null, error: unknown, known: readonly string[]) {
  return data<ModelsActionData>(
    { intent, providerId, ok: false, errors: formErrorsOf(error, known) },
    { status: 400 },
  );
}

export async function modelsAction(api: ApiClient, form: FormData) {
  const raw = fields(form);
  const intent = ZIntent.safeParse(raw.intent);
  if (!intent.success) throw data(null, { status: 400 });
  const providerIdParse = ZProviderId.safeParse(raw.providerId);
  const providerId = providerIdParse.success ? providerIdParse.data : null;
  if (intent.data !== 'create' && !providerId) throw data(null, { status: 400 });
  const base = `/api/model-providers/${providerId}/`;

  switch (intent.data) {
    case 'create': {
      const parsed = ZCreateModelProviderRequest.safeParse(raw);
      if (!parsed.success) return invalid('create', null, parsed.error.issues);
      try {
        const created = await api.post<TModelProvider>('/api/model-providers/', parsed.data);
        return {
          intent: 'create',
          providerId: created.uuid,
          ok: true,
          message: `${created.name} added`,
        } as const;
      } catch (error) {
        return failed('create', null, error, ['kind', 'name', 'base_url', 'api_key']);
      }
    }
    case 'update': {
      // A blank key field keeps the stored key; "remove key" clears it.
      const body = {
        name: raw.name,
        base_url: raw.base_url,
        ...(raw.remove_key === 'on' ? { api_key: null } : raw.api_key ? { api_key: raw.api_key } : {}),
      };
      const parsed = ZUpdateModelProviderRequest.safeParse(body);
      if (!parsed.success) return invalid('update', providerId, parsed.error.issues);
      try {
        const updated = await api.patch<TModelProvider>(base, parsed.data);
        return { intent: 'update', providerId, ok: true, message: `${updated.name} saved` } as const;
      } catch (error) {
        return failed('update', providerId, error, ['name', 'base_url', 'api_key']);
      }
    }
    case 'delete':
      try {
        await api.delete(base);
        return { intent: 'delete', providerId, ok: true, message: 'Provider removed' } as const;
      } catch (error) {
        return failed('delete', providerId, error, []);
      }
    case 'test':
      try {
        const test = await api.post<TTestConnectionResponse>(`${base}test-connection/`);
        return { intent: 'test', providerId: providerId!, ok: true, test } as const;
      } catch (error) {
        return failed('test', providerId, error, []);
      }
    case 'add-model': {
      const parsed = ZAddProviderModelRequest.safeParse(raw);
      if (!parsed.success) return invalid('add-model', providerId, parsed.error.issues);
      try {
        const model = await api.post<TProviderModel>(`${base}models/`, parsed.data);
        return {
          intent: 'add-model',
          providerId,
          ok: true,
          message: `${model.name} added as ${model.model_type}`,
        } as const;
      } catch (error) {
        return failed('add-model', providerId, error, ['name', 'model_type']);
      }
    }
    case 'remove-model': {
      const modelId = ZProviderId.safeParse(raw.modelId);
      if (!modelId.success) throw data(null, { status: 400 });
      try {
        await api.delete(`${base}models/${modelId.data}/`);
        return { intent: 'remove-model', providerId, ok: true, message: 'Model removed' } as const;
      } catch (error) {
        return failed('remove-model', providerId, error, []);
      }
    }
    case 'set-prices': {
      const modelId = ZProviderId.safeParse(raw.modelId);
      if (!modelId.success) throw data(null, { status: 400 });
      const parsed = ZUpdateProviderModelRequest.safeParse({
        input_price_per_million: priceOf(raw.input_price_per_million),
        output_price_per_million: priceOf(raw.output_price_per_million),
      });
      if (!parsed.success) return invalid('set-prices', providerId, parsed.error.issues);
      try {
        const model = await api.patch<TProviderModel>(`${base}models/${modelId.data}/`, parsed.data);
        return {
          intent: 'set-prices',
          providerId,
          ok: true,
          message: `Prices of ${model.name} saved`,
        } as const;
      } catch (error) {
        return failed('set-prices', providerId, error, [
          'input_price_per_million',
          'output_price_per_million',
        ]);
      }
    }
  }
}
