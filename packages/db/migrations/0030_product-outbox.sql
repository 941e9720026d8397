CREATE TABLE "product_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"events" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
