-- A learner search finds its candidates in the trigram index, then tests every candidate row
-- against the pattern. That test built the lowered text afresh for each row (lower() of the
-- first name, last name and e-mail joined), which cost about as much as reading the rows.
-- Stored once when the row is written, the test reads it, and the index is built on it.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
ALTER TABLE "company_learner" ADD COLUMN "search_text" text
  GENERATED ALWAYS AS (lower("first_name" || ' ' || "last_name" || ' ' || "email")) STORED;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
    AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    DROP INDEX IF EXISTS "company_learner_search_idx";
    CREATE INDEX "company_learner_search_idx" ON "company_learner" USING gin ("company_id", "search_text" gin_trgm_ops);
  END IF;
END $$;
