ALTER TABLE "messages" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "knowledge_index_stats" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_open_answers_idx" ON "messages" USING btree ("status","id") WHERE status IN ('pending', 'streaming');--> statement-breakpoint
-- The stats triggers (0008) also bump `version`: an in-process copy of an application's postings
-- is current exactly while its version matches.
CREATE OR REPLACE FUNCTION "knowledge_chunks_stats_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO knowledge_index_stats AS s (application_id, chunk_count, token_total, version)
  SELECT application_id, count(*), sum(token_count), 1 FROM added_rows GROUP BY application_id
  ON CONFLICT (application_id) DO UPDATE
    SET chunk_count = s.chunk_count + EXCLUDED.chunk_count, token_total = s.token_total + EXCLUDED.token_total,
        version = s.version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "knowledge_chunks_stats_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE knowledge_index_stats s
  SET chunk_count = s.chunk_count - r.n, token_total = s.token_total - r.t, version = s.version + 1
  FROM (SELECT application_id, count(*) AS n, sum(token_count) AS t FROM removed_rows GROUP BY application_id) r
  WHERE s.application_id = r.application_id;
  RETURN NULL;
END $$;
