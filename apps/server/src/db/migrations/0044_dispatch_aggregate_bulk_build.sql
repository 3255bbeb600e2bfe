-- A first full sync's dispatch aggregates built after the rows (docs/performance.md "Sync").
--
-- Each registration page of a full sync set off the dispatch aggregates' statement triggers
-- (dispatch_stat, dispatch_learner, dispatch_month, dispatch_week, dispatch_success,
-- company_month, dispatch_access_day and the active registrations of dispatch_summary and
-- dispatch_course_summary): about as much of the database's time per page as the insert itself,
-- and their row changes set off ANALYZE passes of the aggregate tables while the listing ran.
--
-- As company learners are (migration 0021): a transaction that sets `portal.dispatch_aggregates_deferred`
-- to 'on' (the sync's full registration listing does) marks each dispatch it touches that has
-- no live registration counted yet `building` (dispatch_stat.building), and the triggers leave
-- out every delta of a dispatch marked so, whoever writes (a postback for such a dispatch too).
-- dispatch_aggregates_build later hands all the live registrations of a set of such dispatches
-- to the same apply functions the triggers call, in one statement each, and clears the mark:
-- the aggregates end as the page-by-page path leaves them, since both add the same deltas to
-- the same rows. A dispatch already counted is kept page by page as before.
--
-- Order: every trigger first locks the touched dispatches' stat rows and only then reads their
-- mark (dispatch_aggregates_waiting), and a build locks them before it reads the registrations:
-- a writer either commits before the build reads (and its delta, left out, is read by the
-- build) or waits for the build and then finds the mark cleared (and adds its delta itself).
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
ALTER TABLE "dispatch_stat" ADD COLUMN "building" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_stat_building_idx" ON "dispatch_stat" ("dispatch_id") WHERE "building";
--> statement-breakpoint
-- The sync's own split of a run's time (docs/performance.md "Sync"): waiting for the provider's
-- pages, and writing (pages, aggregate builds, statistics).
ALTER TABLE "sync_run" ADD COLUMN "provider_wait_ms" integer;
--> statement-breakpoint
ALTER TABLE "sync_run" ADD COLUMN "write_ms" integer;
--> statement-breakpoint
-- Of `touched`, the dispatches whose aggregates wait for their build, after locking their stat
-- rows (in id order, as every writer of them does). With the setting on, a touched dispatch
-- without a live registration counted is marked first.
CREATE FUNCTION "dispatch_aggregates_waiting"(touched text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  waiting text[];
BEGIN
  IF coalesce(array_length(touched, 1), 0) = 0 THEN
    RETURN '{}';
  END IF;
  IF coalesce(current_setting('portal.dispatch_aggregates_deferred', true), '') = 'on' THEN
    -- The version moves when the build is asked for (the report's caches), and again when it lands.
    INSERT INTO "dispatch_stat" AS s ("dispatch_id", "version", "building")
    SELECT DISTINCT t, txid_current(), true FROM unnest(touched) AS t ORDER BY 1
    ON CONFLICT ("dispatch_id") DO UPDATE SET "building" = true, "version" = greatest(s."version" + 1, txid_current())
    WHERE NOT s."building" AND s."registrations" = 0;
  END IF;
  SELECT coalesce(array_agg(l."dispatch_id"), '{}') INTO waiting
  FROM (
    SELECT "dispatch_id", "building" FROM "dispatch_stat" WHERE "dispatch_id" = ANY (touched)
    ORDER BY "dispatch_id" FOR UPDATE
  ) AS l
  WHERE l."building";
  RETURN waiting;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_stats_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows));
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(SELECT ROW("dispatch_id", "learner_hash", "completion_status", 1)::"registration_delta" FROM new_rows
          WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)),
    ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows WHERE "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_stats_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT "dispatch_id" FROM new_rows UNION SELECT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(
      SELECT ROW("dispatch_id", "learner_hash", "completion_status", 1)::"registration_delta" FROM new_rows
      WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)
      UNION ALL
      SELECT ROW("dispatch_id", "learner_hash", "completion_status", -1)::"registration_delta" FROM old_rows
      WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)),
    ARRAY(SELECT "dispatch_id" FROM new_rows WHERE "dispatch_id" <> ALL (waiting)
          UNION SELECT "dispatch_id" FROM old_rows WHERE "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_stats_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(SELECT ROW("dispatch_id", "learner_hash", "completion_status", -1)::"registration_delta" FROM old_rows
          WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)),
    ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows WHERE "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_trend_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows));
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", 1)::"registration_trend_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_trend_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT "dispatch_id" FROM new_rows UNION SELECT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", 1)::"registration_trend_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)
    UNION ALL
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", -1)::"registration_trend_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_trend_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", -1)::"registration_trend_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dispatch_access_day_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows));
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"access_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dispatch_access_day_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT "dispatch_id" FROM new_rows UNION SELECT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"access_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL AND "dispatch_id" <> ALL (waiting)
    UNION ALL
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"access_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dispatch_access_day_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting text[] := "dispatch_aggregates_waiting"(ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows));
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"access_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL AND "dispatch_id" <> ALL (waiting)));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Builds the aggregates of those of `dispatches` marked `building`, from their live
-- registrations, through the triggers' own apply functions; returns how many it built.
CREATE FUNCTION "dispatch_aggregates_build"(dispatches text[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  ready text[];
BEGIN
  SELECT coalesce(array_agg(l."dispatch_id" ORDER BY l."dispatch_id"), '{}') INTO ready
  FROM (
    SELECT "dispatch_id", "building" FROM "dispatch_stat" WHERE "dispatch_id" = ANY (dispatches)
    ORDER BY "dispatch_id" FOR UPDATE
  ) AS l
  WHERE l."building";
  IF coalesce(array_length(ready, 1), 0) = 0 THEN
    RETURN 0;
  END IF;
  PERFORM "registration_stats_apply"(
    ARRAY(SELECT ROW(r."dispatch_id", r."learner_hash", r."completion_status", 1)::"registration_delta"
          FROM "registration" AS r WHERE r."dispatch_id" = ANY (ready) AND r."removed_at" IS NULL),
    ready);
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW(r."dispatch_id", date_trunc('month', r."created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', r."completed_date" AT TIME ZONE 'UTC')::date, r."success_status", 1)::"registration_trend_delta"
    FROM "registration" AS r WHERE r."dispatch_id" = ANY (ready) AND r."removed_at" IS NULL));
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW(r."dispatch_id", r."completion_status", (r."last_access_date" AT TIME ZONE 'UTC')::date, 1)::"access_day_delta"
    FROM "registration" AS r
    WHERE r."dispatch_id" = ANY (ready) AND r."removed_at" IS NULL AND r."last_access_date" IS NOT NULL));
  -- The repeat learners' day counts (migration 0042), from the learners just counted. Their
  -- triggers add nothing for a dispatch while it waits: they read dispatch_learner, which the
  -- triggers above leave at no registrations for it, so none of its learners repeats until now.
  INSERT INTO "dispatch_repeat_day" AS t ("dispatch_id", "day", "completion_status", "learner_hash", "registrations")
  SELECT r."dispatch_id", (r."last_access_date" AT TIME ZONE 'UTC')::date, r."completion_status", r."learner_hash", count(*)::int
  FROM "registration" AS r
  JOIN "dispatch_learner" AS l ON l."dispatch_id" = r."dispatch_id" AND l."learner_hash" = r."learner_hash" AND l."registrations" > 1
  WHERE r."dispatch_id" = ANY (ready) AND r."removed_at" IS NULL AND r."last_access_date" IS NOT NULL
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("dispatch_id", "day", "completion_status", "learner_hash")
  DO UPDATE SET "registrations" = t."registrations" + excluded."registrations";
  UPDATE "dispatch_stat" SET "building" = false WHERE "dispatch_id" = ANY (ready);
  RETURN array_length(ready, 1);
END $$;
