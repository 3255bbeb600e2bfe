-- A completion report search with a status filter ("Samuel", completed). The learner
-- search index of migration 0008 held the dispatch and the learner text, so every match of the
-- text was read from the table to test its status, nearly a page per match. With the status in
-- the index too, the index leaves the other statuses out and about half the pages are read. A search without a
-- status reads this index as it read the old one (a GIN index serves any of its columns).
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
    AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    CREATE INDEX IF NOT EXISTS "registration_learner_status_search_idx" ON "registration" USING gin (
      "dispatch_id",
      "completion_status",
      (lower("learner_first_name" || ' ' || "learner_last_name" || ' ' || "learner_email")) gin_trgm_ops
    ) WHERE "removed_at" IS NULL;
    DROP INDEX IF EXISTS "registration_learner_search_idx";
  END IF;
END $$;
