-- The learners a dispatch holds more than one live registration of (dispatch_learner rows with
-- registrations > 1), indexed on their own: the report's repeat-learners filter and the licence
-- count read them by dispatch. Through the primary key they were found by reading every learner
-- of the dispatch, and on a dispatch of a million registrations the planner read the whole table
-- instead. Repeat learners are few, so the index is small and rows enter it only when a learner's
-- second registration arrives.
CREATE INDEX IF NOT EXISTS "dispatch_learner_repeat_idx" ON "dispatch_learner" ("dispatch_id", "learner_hash")
  WHERE "registrations" > 1;
