-- A staff search's page collected every match (by course and by company, index-only)
-- and sorted them all, to keep one page: a thousand matches for a title word, several thousand
-- for a common company word. Sorted by client or by course, a page now takes from each matched
-- course and each matched company only its first rows in the list's order (its page's end), each
-- group walked in order on one of these indexes, and sorts those few. The course and company
-- indexes carry every sort key and the other group's id, so a search they cannot serve this way
-- (another sort, a deep page) still collects its matches from them index-only.
DROP INDEX IF EXISTS "dispatch_search_course_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_search_company_idx";
--> statement-breakpoint
CREATE INDEX "dispatch_search_course_idx" ON "dispatch" ("course_id", "destination_key", "id")
  INCLUDE ("enabled", "registration_count", "course_key", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_search_company_idx" ON "dispatch" ("destination_id", "destination_key", "id")
  INCLUDE ("enabled", "registration_count", "course_key", "course_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_search_course_by_course_idx" ON "dispatch" ("course_id", "course_key", "id")
  INCLUDE ("enabled", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_search_company_by_course_idx" ON "dispatch" ("destination_id", "course_key", "id")
  INCLUDE ("enabled", "course_id") WHERE "removed_at" IS NULL;
