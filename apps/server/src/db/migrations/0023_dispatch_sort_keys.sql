-- The dispatch list sorts by client and by course case-insensitively. With lower() in
-- the ORDER BY, every row a search collects had its key lowered again before the sort (lower() of
-- a UTF-8 text goes through wide characters: about half of a collected search's cost), and every
-- page lowered its rows' keys once more to put them back in order. The keys are now stored once
-- per write, and the list and search indexes carry them as plain columns (same names, same order).
ALTER TABLE "dispatch"
  ADD COLUMN "destination_key" text GENERATED ALWAYS AS (lower("destination_name")) STORED NOT NULL,
  ADD COLUMN "course_key" text GENERATED ALWAYS AS (lower("course_title")) STORED NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_list_client_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_list_course_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_list_status_client_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_list_status_course_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_search_course_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_search_company_idx";
--> statement-breakpoint
CREATE INDEX "dispatch_list_client_idx" ON "dispatch" ("destination_key", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_course_idx" ON "dispatch" ("course_key", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_status_client_idx" ON "dispatch" ("enabled", "destination_key", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_status_course_idx" ON "dispatch" ("enabled", "course_key", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
-- A search's matches by course and by company, with every sort key: collected index-only.
CREATE INDEX "dispatch_search_course_idx" ON "dispatch" ("course_id")
  INCLUDE ("id", "enabled", "registration_count", "destination_key", "course_key") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_search_company_idx" ON "dispatch" ("destination_id")
  INCLUDE ("id", "enabled", "registration_count", "destination_key", "course_key") WHERE "removed_at" IS NULL;
--> statement-breakpoint
-- Statistics for the new columns now; the visibility map the index-only scans need is set by the
-- VACUUM after migrating (db/visibility.ts), which cannot run in a migration's transaction.
ANALYZE "dispatch";
