CREATE TABLE "knowledge_index_stats" (
	"application_id" integer PRIMARY KEY NOT NULL,
	"chunk_count" bigint DEFAULT 0 NOT NULL,
	"token_total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_index_stats" ADD CONSTRAINT "knowledge_index_stats_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "knowledge_index_stats" (application_id, chunk_count, token_total)
SELECT application_id, count(*), sum(token_count) FROM knowledge_chunks GROUP BY application_id;--> statement-breakpoint
-- Kept by statement triggers (one UPDATE per statement, not per chunk). Transition tables also
-- fire for the deletes that cascade from knowledge_items and applications.
CREATE FUNCTION "knowledge_chunks_stats_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO knowledge_index_stats AS s (application_id, chunk_count, token_total)
  SELECT application_id, count(*), sum(token_count) FROM added_rows GROUP BY application_id
  ON CONFLICT (application_id) DO UPDATE
    SET chunk_count = s.chunk_count + EXCLUDED.chunk_count, token_total = s.token_total + EXCLUDED.token_total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "knowledge_chunks_stats_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE knowledge_index_stats s
  SET chunk_count = s.chunk_count - r.n, token_total = s.token_total - r.t
  FROM (SELECT application_id, count(*) AS n, sum(token_count) AS t FROM removed_rows GROUP BY application_id) r
  WHERE s.application_id = r.application_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "knowledge_chunks_stats_insert" AFTER INSERT ON "knowledge_chunks"
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION "knowledge_chunks_stats_added"();--> statement-breakpoint
CREATE TRIGGER "knowledge_chunks_stats_delete" AFTER DELETE ON "knowledge_chunks"
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION "knowledge_chunks_stats_removed"();
