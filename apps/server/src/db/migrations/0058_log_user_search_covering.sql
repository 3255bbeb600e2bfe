-- A log search with a user and a date window (tracing what one person did in a week or a quarter)
-- is answered slice by slice of time: each slice reads the user's rows in it through this index
-- and compares their text with the term. The rows of one user lie scattered over the table, one
-- table page each, so a quarter of a user's rows read about a thousand table pages to find a few
-- matches. With the searched text carried in the index, that comparison is an index-only scan of
-- a few dozen index pages (the log's rows are never updated, so its pages are all-visible once
-- vacuumed). The index keeps its keys and its name: every other reader of a user's rows walks it as
-- before. It is about three times its former size.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DROP INDEX IF EXISTS "activity_log_user_id_created_at_idx";
--> statement-breakpoint
CREATE INDEX "activity_log_user_id_created_at_idx" ON "activity_log" ("user_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("search_text");
