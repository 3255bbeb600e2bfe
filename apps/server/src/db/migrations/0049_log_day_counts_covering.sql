-- The log's kept day counts are read by user, or by action ('*' for all), newest first: for every
-- page's total without a search, to place a deep page, and to size a search's slices of time. A
-- user's or an action's rows lie scattered over the table's pages (each day adds a row for every
-- user and action who wrote that day), so a year of one user's days read some hundred heap pages.
-- With the count in the index those reads are index-only scans of a few index pages, the rows of
-- past days being all-visible once vacuumed. A count's update then writes a new index entry (it is
-- no longer a HOT update); counts change once per statement that writes the log, and PostgreSQL's
-- bottom-up index deletion removes the superseded entries.
ALTER TABLE "activity_log_user_day" DROP CONSTRAINT "activity_log_user_day_pkey";
--> statement-breakpoint
ALTER TABLE "activity_log_user_day" ADD CONSTRAINT "activity_log_user_day_pkey" PRIMARY KEY ("user_id", "day") INCLUDE ("rows");
--> statement-breakpoint
DROP INDEX IF EXISTS "activity_log_day_action_idx";
--> statement-breakpoint
CREATE INDEX "activity_log_day_action_idx" ON "activity_log_day" ("action", "day") INCLUDE ("rows");
