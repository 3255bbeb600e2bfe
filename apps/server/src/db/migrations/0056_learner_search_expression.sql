-- Migration 0055 stored the learners' lowered name and e-mail as a column and built the trigram
-- index on it. With that column's statistics the planner priced the index above reading all of
-- a company's learners for a search of one or two letters (a regular expression at word starts),
-- and such a search then tested every learner of the company. Built on the expression, as before
-- 0055, the index is taken for those searches too.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_search_idx";
--> statement-breakpoint
ALTER TABLE "company_learner" DROP COLUMN IF EXISTS "search_text";
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
    AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    CREATE INDEX "company_learner_search_idx" ON "company_learner" USING gin (
      "company_id",
      (lower("first_name" || ' ' || "last_name" || ' ' || "email")) gin_trgm_ops
    );
  END IF;
END $$;
