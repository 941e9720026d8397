ALTER TABLE "knowledge_postings" DROP CONSTRAINT "knowledge_postings_pk";--> statement-breakpoint
-- INCLUDE (tf, chunk_length), which drizzle-kit cannot express: BM25 reads a lexeme's postings
-- from the index alone (index-only scan) instead of visiting the table for every posting.
CREATE UNIQUE INDEX "knowledge_postings_key" ON "knowledge_postings" USING btree ("application_id","ts_config","lexeme","chunk_id") INCLUDE ("tf","chunk_length");
