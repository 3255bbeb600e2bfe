-- And #16, the learner list filtered by a status (migration 0015's company_learner).
--
-- A status filter is also a range of that status's count (learners.repository.ts): a learner has
-- the facet s:completed exactly when completed > 0. Each sort index now carries the three status
-- counts (INCLUDE), so a filtered page's offset is an index-only walk that tests the count in the
-- index: page 312 of the big company's learners in progress, by name, read 100,000 learners from
-- the table and sorted them (100 ms). A course filter still reads the facets from the table.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_name_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_name_idx" ON "company_learner" ("company_id", "name_key", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_email_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_email_idx" ON "company_learner" ("company_id", "email_key", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_courses_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_courses_idx" ON "company_learner" ("company_id", "registrations", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_completed_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_completed_idx" ON "company_learner" ("company_id", "completed", "learner_hash")
  INCLUDE ("incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_incomplete_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_incomplete_idx" ON "company_learner" ("company_id", "incomplete", "learner_hash")
  INCLUDE ("completed", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_not_attempted_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_not_attempted_idx" ON "company_learner" ("company_id", "not_attempted", "learner_hash")
  INCLUDE ("completed", "incomplete");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_score_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_score_idx" ON "company_learner" ("company_id", "score_key", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_time_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_time_idx" ON "company_learner" ("company_id", "total_seconds", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_last_access_idx";
--> statement-breakpoint
CREATE INDEX "company_learner_last_access_idx" ON "company_learner" ("company_id", "access_key", "learner_hash")
  INCLUDE ("completed", "incomplete", "not_attempted");
