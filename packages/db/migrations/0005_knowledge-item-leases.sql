ALTER TABLE "knowledge_items" ADD COLUMN "lease" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "knowledge_items_status_idx" ON "knowledge_items" USING btree ("status","heartbeat_at");