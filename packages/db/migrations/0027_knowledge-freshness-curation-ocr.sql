ALTER TABLE "knowledge_items" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "refresh_interval_hours" integer;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "last_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "check_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "last_modified" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "crawl_options" jsonb;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "crawl_found" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "qa_question" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "qa_alternatives" text[];--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "qa_answer" text;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD COLUMN "read_with_ocr" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "knowledge_items_next_check_idx" ON "knowledge_items" USING btree ("next_check_at") WHERE next_check_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "knowledge_items_crawl_root_idx" ON "knowledge_items" USING btree ("crawl_root_id") WHERE crawl_root_id IS NOT NULL;