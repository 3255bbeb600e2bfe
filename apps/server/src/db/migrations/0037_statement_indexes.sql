-- The monthly usage statements read, per dispatch and month, the registrations created, first
-- launched and completed in the month: one range scan each over these (dispatch, date) indexes,
-- the learner hash carried so the distinct learners are counted index-only. Removed
-- registrations are kept in them: a registration once made was billed.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "registration_created_idx" ON "registration" ("dispatch_id", "created_date")
  WHERE "created_date" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "registration_first_access_idx" ON "registration" ("dispatch_id", "first_access_date")
  INCLUDE ("learner_hash") WHERE "first_access_date" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "registration_completed_idx" ON "registration" ("dispatch_id", "completed_date")
  WHERE "completed_date" IS NOT NULL;
