import {
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps, users } from './accounts.ts';

export const PROVIDER_KINDS = ['openai', 'anthropic', 'ollama', 'openai_compatible'] as const;
export const PROVIDER_MODEL_TYPES = ['text', 'embedding'] as const;

/** A language-model service a user connected: its API key is only ever stored sealed (secret box). */
export const modelProviders = pgTable(
  'model_providers',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PROVIDER_KINDS }).notNull(),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    /** AES-256-GCM sealed API key (`v1.…`), bound to this row's uuid; null when the provider needs none. */
    keyCiphertext: text('key_ciphertext'),
    /** The last 4 characters of the key: all the key that is ever shown again. */
    keyLast4: text('key_last4'),
    ...timestamps,
  },
  (t) => [index('model_providers_owner_idx').on(t.ownerId, t.createdAt)],
);

/** A model offered by a provider, as its API names it, usable as a `text` or an `embedding` model. */
export const providerModels = pgTable(
  'provider_models',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => modelProviders.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    modelType: text('model_type', { enum: PROVIDER_MODEL_TYPES }).notNull(),
    /** Vector size of an embedding model, learnt from its first answer. */
    dimensions: integer('dimensions'),
    /** What the owner pays per million tokens (in their currency), for analytics' estimated cost; null: unknown. */
    inputPricePerMillion: doublePrecision('input_price_per_million'),
    outputPricePerMillion: doublePrecision('output_price_per_million'),
    ...timestamps,
  },
  (t) => [uniqueIndex('provider_models_name_key').on(t.providerId, t.modelType, t.name)],
);
