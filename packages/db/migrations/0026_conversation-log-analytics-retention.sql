CREATE TABLE "analytics_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"first_token_ms" integer,
	"model_uuid" uuid,
	"model_name" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_citations" (
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"item_uuid" uuid NOT NULL,
	"title" text NOT NULL,
	"citations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_citations_application_id_day_item_uuid_pk" PRIMARY KEY("application_id","day","item_uuid")
);
--> statement-breakpoint
CREATE TABLE "analytics_days" (
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"conversations" integer DEFAULT 0 NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"rated_up" integer DEFAULT 0 NOT NULL,
	"rated_down" integer DEFAULT 0 NOT NULL,
	"not_covered" integer DEFAULT 0 NOT NULL,
	"handoffs_requested" integer DEFAULT 0 NOT NULL,
	"handoffs_answered" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_days_application_id_day_pk" PRIMARY KEY("application_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_human_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"wait_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"question" text NOT NULL,
	"tokens" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_visitors" (
	"application_id" integer NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "analytics_visitors_application_id_day_visitor_pk" PRIMARY KEY("application_id","day","visitor")
);
--> statement-breakpoint
DROP INDEX "chatrooms_app_activity_idx";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "conversation_retention_days" integer;--> statement-breakpoint
ALTER TABLE "provider_models" ADD COLUMN "input_price_per_million" double precision;--> statement-breakpoint
ALTER TABLE "provider_models" ADD COLUMN "output_price_per_million" double precision;--> statement-breakpoint
ALTER TABLE "analytics_answers" ADD CONSTRAINT "analytics_answers_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_citations" ADD CONSTRAINT "analytics_citations_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_days" ADD CONSTRAINT "analytics_days_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_human_replies" ADD CONSTRAINT "analytics_human_replies_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_questions" ADD CONSTRAINT "analytics_questions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_visitors" ADD CONSTRAINT "analytics_visitors_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_answers_app_day_idx" ON "analytics_answers" USING btree ("application_id","day");--> statement-breakpoint
CREATE INDEX "analytics_human_replies_app_day_idx" ON "analytics_human_replies" USING btree ("application_id","day");--> statement-breakpoint
CREATE INDEX "analytics_questions_app_day_idx" ON "analytics_questions" USING btree ("application_id","day");--> statement-breakpoint
CREATE INDEX "chatrooms_app_source_activity_idx" ON "chatrooms" USING btree ("application_id","source","last_message_at","id");--> statement-breakpoint
CREATE INDEX "messages_good_answers_idx" ON "messages" USING btree ("chatroom_id") WHERE feedback = 'up';--> statement-breakpoint
CREATE INDEX "messages_not_covered_idx" ON "messages" USING btree ("chatroom_id") WHERE (metadata->>'not_covered') = 'true';--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin (to_tsvector('simple', "message"));--> statement-breakpoint
CREATE INDEX "chatrooms_app_activity_idx" ON "chatrooms" USING btree ("application_id","last_message_at","id");