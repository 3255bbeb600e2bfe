-- The repeat learners' day triggers (migration 0042) leave out the dispatches whose aggregates
-- wait for their build (migration 0044), as the other aggregate triggers do.
--
-- They added nothing for such a dispatch, since they read dispatch_learner, which holds none of
-- its learners until the build; but they still looked up every learner of the statement, about
-- a third of the time a first sync's move of its staged registrations took. And a statement
-- that deleted two registrations of one learner of such a dispatch found that learner
-- "repeating before" and wrote negative counts the build then added to. The build counts the
-- dispatch's repeat learners from its registrations whatever happened before it.
CREATE OR REPLACE FUNCTION "dispatch_repeat_day_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows));
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"repeat_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dispatch_repeat_day_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT "dispatch_id" FROM new_rows UNION SELECT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"repeat_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)
    UNION ALL
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"repeat_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dispatch_repeat_day_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"repeat_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
