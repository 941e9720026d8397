-- pgvector is needed for knowledge embeddings (PGlite loads it as an extension; PostgreSQL needs it installed).
CREATE EXTENSION IF NOT EXISTS vector;
