-- The distinct learners of a last-access window on a dispatch where some learners hold more than
-- one live registration (dispatch_stat's registrations <> learners). The day counts of migration
-- 0041 give the window's registrations, but learners cannot be summed over days, so such a
-- dispatch counted the window's distinct learners over the report index: a pass over every entry
-- of the window, growing with the dispatch.
--
-- Only a repeat learner can be counted twice. So the window's distinct learners are its
-- registrations less, for each repeat learner with registrations in the window, those registrations
-- less one. dispatch_repeat_day keeps the live, accessed registrations of the repeat learners
-- alone (the learners dispatch_learner counts more than once, as the report's repeat-learners
-- filter and the licence count read them), per dispatch, UTC day of last access, completion status
-- and learner: a window reads only those, whatever the size of the dispatch.
--
-- Kept by statement triggers as the other report counts are. Their names sort after
-- registration_stats_* (PostgreSQL fires a table's triggers of one event in name order), so they
-- read dispatch_learner as the statement left it, and run under the lock those triggers took on
-- the dispatches' dispatch_stat rows.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE TABLE "dispatch_repeat_day" (
  "dispatch_id" text NOT NULL,
  "day" date NOT NULL,
  "completion_status" text NOT NULL,
  "learner_hash" bigint NOT NULL,
  "registrations" integer NOT NULL,
  -- Day before status: a window without a status is one range of the index, one with a status
  -- the same range filtered. INCLUDE: a window is read index-only.
  CONSTRAINT "dispatch_repeat_day_pkey" PRIMARY KEY ("dispatch_id", "day", "completion_status", "learner_hash") INCLUDE ("registrations")
);
--> statement-breakpoint
CREATE TYPE "repeat_day_delta" AS ("dispatch_id" text, "learner_hash" bigint, "completion_status" text, "day" date, "delta" integer);
--> statement-breakpoint
-- deltas: the statement's live registrations, +1 new and -1 old, accessed or not (day null).
CREATE FUNCTION "dispatch_repeat_day_apply"(deltas "repeat_day_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changes "repeat_day_delta"[];
BEGIN
  IF coalesce(array_length(deltas, 1), 0) = 0 THEN
    RETURN;
  END IF;
  WITH "learner" AS (
    -- Each touched learner's live registrations after the statement (dispatch_learner, already
    -- moved by registration_stats_*) and before it.
    SELECT p."dispatch_id", p."learner_hash", coalesce(l."registrations", 0) > 1 AS repeats_now,
      coalesce(l."registrations", 0) - p.moved > 1 AS repeated
    FROM (SELECT "dispatch_id", "learner_hash", sum("delta") AS moved FROM unnest(deltas) GROUP BY 1, 2) AS p
    LEFT JOIN "dispatch_learner" AS l ON l."dispatch_id" = p."dispatch_id" AND l."learner_hash" = p."learner_hash"
  ), "moved" AS (
    -- A learner who repeated has rows: they move by the statement's accessed registrations.
    SELECT d."dispatch_id", d."learner_hash", d."completion_status", d."day", d."delta"
    FROM unnest(deltas) AS d JOIN "learner" AS k USING ("dispatch_id", "learner_hash")
    WHERE k.repeated AND d."day" IS NOT NULL
    UNION ALL
    -- A learner who starts repeating gains its accessed registrations as they are now; one who
    -- stops loses them (with the moves above, that leaves none). Looked up by learner
    -- (registration_learner_idx, migration 0015), the dispatch a filter: `offset 0` keeps the
    -- planner from walking the dispatch's entries of a report index instead, all of a large
    -- dispatch for each learner.
    SELECT r."dispatch_id", r."learner_hash", r."completion_status", (r."last_access_date" AT TIME ZONE 'UTC')::date,
      CASE WHEN k.repeats_now THEN 1 ELSE -1 END
    FROM "learner" AS k CROSS JOIN LATERAL (
      SELECT * FROM "registration" AS o WHERE o."learner_hash" = k."learner_hash" AND o."removed_at" IS NULL OFFSET 0
    ) AS r
    WHERE k.repeats_now <> k.repeated AND r."dispatch_id" = k."dispatch_id" AND r."last_access_date" IS NOT NULL
  )
  SELECT array_agg(ROW("dispatch_id", "learner_hash", "completion_status", "day", n)::"repeat_day_delta" ORDER BY "dispatch_id", "day", "completion_status", "learner_hash")
  INTO changes
  FROM (SELECT "dispatch_id", "learner_hash", "completion_status", "day", sum("delta")::int AS n FROM "moved"
    GROUP BY 1, 2, 3, 4 HAVING sum("delta") <> 0) AS c;
  IF changes IS NULL THEN
    RETURN;
  END IF;
  -- In key order, so concurrent writers take the rows' locks in one order.
  INSERT INTO "dispatch_repeat_day" AS t ("dispatch_id", "day", "completion_status", "learner_hash", "registrations")
  SELECT "dispatch_id", "day", "completion_status", "learner_hash", "delta" FROM unnest(changes)
  ON CONFLICT ("dispatch_id", "day", "completion_status", "learner_hash")
  DO UPDATE SET "registrations" = t."registrations" + excluded."registrations";
  -- A row counts a learner in its window: none may stay at zero.
  DELETE FROM "dispatch_repeat_day" AS t USING unnest(changes) AS c
  WHERE t."dispatch_id" = c."dispatch_id" AND t."day" = c."day" AND t."completion_status" = c."completion_status"
    AND t."learner_hash" = c."learner_hash" AND t."registrations" = 0;
END $$;
--> statement-breakpoint
-- The whole table from the registrations and dispatch_learner: this migration's fill, and a bulk
-- load's (bench/seed-sql.ts loads registrations with the insert trigger below disabled, then calls it).
CREATE FUNCTION "dispatch_repeat_day_build"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_repeat_day";
  INSERT INTO "dispatch_repeat_day" ("dispatch_id", "day", "completion_status", "learner_hash", "registrations")
  SELECT r."dispatch_id", (r."last_access_date" AT TIME ZONE 'UTC')::date, r."completion_status", r."learner_hash", count(*)::int
  FROM "registration" AS r
  JOIN "dispatch_learner" AS l ON l."dispatch_id" = r."dispatch_id" AND l."learner_hash" = r."learner_hash" AND l."registrations" > 1
  WHERE r."removed_at" IS NULL AND r."last_access_date" IS NOT NULL
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_repeat_day_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"repeat_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_repeat_day_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"repeat_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL
    UNION ALL
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"repeat_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_repeat_day_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_repeat_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "learner_hash", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"repeat_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_repeat_day_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_repeat_day";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registration_then_repeat_day_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_repeat_day_insert"();
--> statement-breakpoint
CREATE TRIGGER "registration_then_repeat_day_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_repeat_day_update"();
--> statement-breakpoint
CREATE TRIGGER "registration_then_repeat_day_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_repeat_day_delete"();
--> statement-breakpoint
CREATE TRIGGER "registration_then_repeat_day_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_repeat_day_truncate"();
--> statement-breakpoint
SELECT "dispatch_repeat_day_build"();
