CREATE TABLE "widget_usage" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"visitor_uuid" uuid NOT NULL,
	"ip_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"application_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"allowed_origins" text[] DEFAULT '{}' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chatrooms" ADD COLUMN "handled_by" text DEFAULT 'assistant' NOT NULL;--> statement-breakpoint
ALTER TABLE "chatrooms" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chatrooms" ADD COLUMN "visitor_uuid" uuid;--> statement-breakpoint
ALTER TABLE "chatrooms" ADD COLUMN "started_on" text;--> statement-breakpoint
ALTER TABLE "widget_usage" ADD CONSTRAINT "widget_usage_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_usage_visitor_idx" ON "widget_usage" USING btree ("application_id","visitor_uuid","created_at");--> statement-breakpoint
CREATE INDEX "widget_usage_ip_idx" ON "widget_usage" USING btree ("application_id","ip_hash","created_at");--> statement-breakpoint
CREATE INDEX "chatrooms_visitor_idx" ON "chatrooms" USING btree ("visitor_uuid","last_message_at") WHERE visitor_uuid IS NOT NULL;