CREATE TABLE "widget_refused_origins" (
	"application_id" integer NOT NULL,
	"origin" text NOT NULL,
	"reason" text NOT NULL,
	"last_refused_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "widget_refused_origins_application_id_origin_pk" PRIMARY KEY("application_id","origin")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "reply_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "widget_refused_origins" ADD CONSTRAINT "widget_refused_origins_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_bad_answers_idx" ON "messages" USING btree ("chatroom_id") WHERE feedback = 'down';