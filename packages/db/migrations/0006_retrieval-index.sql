CREATE TABLE "model_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"base_url" text NOT NULL,
	"key_ciphertext" text,
	"key_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_providers_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "provider_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" integer NOT NULL,
	"name" text NOT NULL,
	"model_type" text NOT NULL,
	"dimensions" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_models_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunk_vectors" (
	"chunk_id" integer PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"model_id" text NOT NULL,
	"dimensions" integer NOT NULL,
	"embedding" vector NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"content" text NOT NULL,
	"page" integer,
	"heading" text,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"language" text,
	"ts_config" smallint NOT NULL,
	"token_count" integer NOT NULL,
	"tsv" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_postings" (
	"application_id" integer NOT NULL,
	"ts_config" smallint NOT NULL,
	"lexeme" text NOT NULL,
	"chunk_id" integer NOT NULL,
	"tf" integer NOT NULL,
	"chunk_length" integer NOT NULL,
	CONSTRAINT "knowledge_postings_pk" PRIMARY KEY("application_id","ts_config","lexeme","chunk_id")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "temperature" real DEFAULT 0.2 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "strictness" text DEFAULT 'strict' NOT NULL;--> statement-breakpoint
ALTER TABLE "model_providers" ADD CONSTRAINT "model_providers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_models" ADD CONSTRAINT "provider_models_provider_id_model_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."model_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunk_vectors" ADD CONSTRAINT "knowledge_chunk_vectors_chunk_id_knowledge_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."knowledge_chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_item_id_knowledge_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."knowledge_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_postings" ADD CONSTRAINT "knowledge_postings_chunk_id_knowledge_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."knowledge_chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_providers_owner_idx" ON "model_providers" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_models_name_key" ON "provider_models" USING btree ("provider_id","model_type","name");--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_app_idx" ON "knowledge_chunk_vectors" USING btree ("application_id","model_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_item_idx" ON "knowledge_chunks" USING btree ("item_id","ordinal");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_app_idx" ON "knowledge_chunks" USING btree ("application_id","token_count");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_tsv_idx" ON "knowledge_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "knowledge_postings_chunk_idx" ON "knowledge_postings" USING btree ("chunk_id");