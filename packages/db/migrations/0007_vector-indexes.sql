-- Chunk vectors have the dimension of whichever embedding model made them, so the column is an
-- untyped `vector`. An HNSW index needs a fixed dimension: one partial expression index per common
-- size. Queries must repeat the exact expression and predicate (apps/api/src/rag/vector-search.ts).
-- Other sizes still work, by exact scan. 3072 exceeds `vector`'s 2,000-dimension HNSW limit: halfvec.
CREATE INDEX "knowledge_chunk_vectors_hnsw_256" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(256)) vector_cosine_ops) WHERE "dimensions" = 256;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_384" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(384)) vector_cosine_ops) WHERE "dimensions" = 384;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_512" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(512)) vector_cosine_ops) WHERE "dimensions" = 512;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_768" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(768)) vector_cosine_ops) WHERE "dimensions" = 768;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_1024" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(1024)) vector_cosine_ops) WHERE "dimensions" = 1024;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_1536" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::vector(1536)) vector_cosine_ops) WHERE "dimensions" = 1536;--> statement-breakpoint
CREATE INDEX "knowledge_chunk_vectors_hnsw_3072" ON "knowledge_chunk_vectors" USING hnsw (("embedding"::halfvec(3072)) halfvec_cosine_ops) WHERE "dimensions" = 3072;
