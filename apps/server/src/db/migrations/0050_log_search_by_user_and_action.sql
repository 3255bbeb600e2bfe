-- A log search with a user or an action (the screen's user and action filters, and tracing what
-- one person did) found its matches in the trigram index and then had to meet the user's or the
-- action's rows: a bitmap of that btree index to AND with, or, where the planner guessed the term
-- rare, every candidate row read from the table and filtered there. A common name with a rare
-- action read some thousand table pages a month partition for a few dozen rows. With user_id and
-- action as keys of the same GIN index (btree_gin), the index itself returns only the rows that
-- match the term and the filters, so the table is read for the matches alone; a search without
-- those filters reads the same trigram keys as before. Both search indexes (the text, and the
-- text without its dots) are rebuilt so; where btree_gin is missing they stay as they were.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
     AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    DROP INDEX IF EXISTS "activity_log_search_trgm_idx";
    CREATE INDEX "activity_log_search_trgm_idx" ON "activity_log" USING gin (
      "user_id", "action", "search_text" gin_trgm_ops
    );
    DROP INDEX IF EXISTS "activity_log_search_dotless_idx";
    CREATE INDEX "activity_log_search_dotless_idx" ON "activity_log" USING gin (
      "user_id", "action", translate("search_text", '.', '') gin_trgm_ops
    );
  END IF;
END $$;
