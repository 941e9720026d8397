CREATE TABLE "widget_usage_hours" (
	"application_id" integer NOT NULL,
	"key_kind" text NOT NULL,
	"key" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "widget_usage_hours_application_id_key_kind_key_hour_pk" PRIMARY KEY("application_id","key_kind","key","hour")
);
--> statement-breakpoint
-- The last day's messages carried over into their hours, so an upgrade does not reset the limits.
INSERT INTO "widget_usage_hours" ("application_id", "key_kind", "key", "hour", "messages")
SELECT "application_id", 'visitor', "visitor_uuid"::text, date_trunc('hour', "created_at", 'UTC'), count(*)
FROM "widget_usage" WHERE "created_at" > now() - interval '25 hours'
GROUP BY 1, 2, 3, 4
UNION ALL
SELECT "application_id", 'ip', "ip_hash", date_trunc('hour', "created_at", 'UTC'), count(*)
FROM "widget_usage" WHERE "created_at" > now() - interval '25 hours'
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DROP TABLE "widget_usage" CASCADE;--> statement-breakpoint
ALTER TABLE "widget_usage_hours" ADD CONSTRAINT "widget_usage_hours_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;