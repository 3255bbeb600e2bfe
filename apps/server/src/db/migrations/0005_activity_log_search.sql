-- GET /api/logs searchTerm and the CSV export: a case-insensitive substring match over the
-- details text, IP address, actor name and actor email (activity-logs/logs.repository.ts,
-- LOG_SEARCH_TEXT, must build the very same expression for the planner to use this index).
-- A trigram GIN index makes `ILIKE '%term%'` an index search on millions of rows.
-- pg_trgm ships with PostgreSQL's contrib and is a trusted extension (PG 13+), so a database
-- owner may create it. Where it cannot be created (PGlite without the extension loaded, a
-- locked-down server) the search still works, as a scan bounded by the filters and the count cap.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): activity log search runs without a trigram index', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "activity_log_search_trgm_idx" ON "activity_log" USING gin (
      (coalesce("details"::text, '') || ' ' || coalesce("ip_address", '') || ' ' ||
       coalesce("actor_name", '') || ' ' || coalesce("actor_email", '')) gin_trgm_ops
    );
  END IF;
END $$;
