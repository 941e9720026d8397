CREATE TABLE "sign_in_failures" (
	"account" text NOT NULL,
	"address" text NOT NULL,
	"failures" integer NOT NULL,
	"retry_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_failures_account_address_pk" PRIMARY KEY("account","address")
);
