-- Every read path served by an index, and totals that never rescan the filtered set.
--
-- 1. pg_trgm and btree_gin (PGlite loads both as contrib extensions, db/client.ts newPglite), so
--    substring searches are index searches on PostgreSQL and on the embedded default alike.
-- 2. Aggregates kept by statement-level triggers, so every writer (sync, postbacks, edits, tests)
--    keeps them without knowing about them:
--    - dispatch_stat: per dispatch, its live registrations in all and per completion status, its
--      distinct learners in all and per status, and the version of its registrations (the
--      completion report caches per value). These moved off "dispatch": a postback no longer
--      writes the dispatch row, so it no longer changes the dispatch data version that every
--      cached list page of every user hangs on;
--    - dispatch_learner: per dispatch and learner, that learner's live registrations in all and
--      per status (what makes the distinct-learner counts exact without a count(distinct));
--    - dispatch_summary: per company and enabled flag, the dispatch list's summary cards over its
--      live dispatches, and a version of the company's dispatches (client list pages cache per it);
--      dispatch_course_summary: the same per course (a search by course title sums these);
--    - activity_log_day / activity_log_user_day: log rows per UTC day and action (action '*': all
--      actions), and per UTC day and user: the logs' totals, and the seek to a deep page, read
--      days, not rows.
-- 3. registration.learner_hash: a 64-bit hash of the learner key (e-mail, else learner id), kept
--    in the report indexes so the report's distinct learners over a date window are counted from
--    an index-only scan of 8-byte values (no heap visit, no sort that spills).
-- 4. Partial indexes (live rows only) matching each filter + sort of the dispatch list, the report
--    and the logs, and trigram GIN indexes for their searches.

-- The rewrite of registration and the index builds take minutes on a large mirror: longer than
-- the pool's 30 s statement timeout. Migrations run in one transaction; this lifts it for them.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): searches run without trigram indexes', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS btree_gin;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'btree_gin is not available (%): learner search runs without its index', SQLERRM;
END $$;
--> statement-breakpoint

-- The old per-dispatch counters of migrations 0002 and 0007 go: dispatch_stat replaces them.
DROP TRIGGER IF EXISTS "registration_counter_insert" ON "registration";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "registration_counter_update" ON "registration";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "registration_counter_delete" ON "registration";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "registration_counter_truncate" ON "registration";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "registration_counter_insert"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "registration_counter_update"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "registration_counter_delete"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "registration_counter_truncate"();
--> statement-breakpoint

ALTER TABLE "registration" ADD COLUMN "learner_hash" bigint GENERATED ALWAYS AS (
  hashtextextended(
    CASE WHEN "learner_email" <> '' THEN 'e:' || lower("learner_email") ELSE 'i:' || "learner_id" END, 0)
) STORED;
--> statement-breakpoint

CREATE TABLE "dispatch_stat" (
  "dispatch_id" text PRIMARY KEY NOT NULL,
  "version" bigint DEFAULT 0 NOT NULL,
  "registrations" integer DEFAULT 0 NOT NULL,
  "completed" integer DEFAULT 0 NOT NULL,
  "incomplete" integer DEFAULT 0 NOT NULL,
  "not_attempted" integer DEFAULT 0 NOT NULL,
  "learners" integer DEFAULT 0 NOT NULL,
  "learners_completed" integer DEFAULT 0 NOT NULL,
  "learners_incomplete" integer DEFAULT 0 NOT NULL,
  "learners_not_attempted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatch_learner" (
  "dispatch_id" text NOT NULL,
  "learner_hash" bigint NOT NULL,
  "registrations" integer DEFAULT 0 NOT NULL,
  "completed" integer DEFAULT 0 NOT NULL,
  "incomplete" integer DEFAULT 0 NOT NULL,
  "not_attempted" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "dispatch_learner_pkey" PRIMARY KEY ("dispatch_id", "learner_hash")
);
--> statement-breakpoint
CREATE TABLE "dispatch_summary" (
  "company_id" text NOT NULL,
  "enabled" boolean NOT NULL,
  "version" bigint DEFAULT 0 NOT NULL,
  "dispatches" integer DEFAULT 0 NOT NULL,
  "registrations" bigint DEFAULT 0 NOT NULL,
  "capped_registrations" bigint DEFAULT 0 NOT NULL,
  "capped_capacity" bigint DEFAULT 0 NOT NULL,
  "unlimited" integer DEFAULT 0 NOT NULL,
  "active_registrations" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "dispatch_summary_pkey" PRIMARY KEY ("company_id", "enabled")
);
--> statement-breakpoint
CREATE TABLE "dispatch_course_summary" (
  "course_id" text NOT NULL,
  "enabled" boolean NOT NULL,
  "dispatches" integer DEFAULT 0 NOT NULL,
  "registrations" bigint DEFAULT 0 NOT NULL,
  "capped_registrations" bigint DEFAULT 0 NOT NULL,
  "capped_capacity" bigint DEFAULT 0 NOT NULL,
  "unlimited" integer DEFAULT 0 NOT NULL,
  "active_registrations" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "dispatch_course_summary_pkey" PRIMARY KEY ("course_id", "enabled")
);
--> statement-breakpoint
CREATE TABLE "activity_log_day" (
  "day" date NOT NULL,
  "action" text NOT NULL,
  "rows" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "activity_log_day_pkey" PRIMARY KEY ("day", "action")
);
--> statement-breakpoint
CREATE TABLE "activity_log_user_day" (
  "user_id" uuid NOT NULL,
  "day" date NOT NULL,
  "rows" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "activity_log_user_day_pkey" PRIMARY KEY ("user_id", "day")
);
--> statement-breakpoint
CREATE INDEX "activity_log_day_action_idx" ON "activity_log_day" ("action", "day");
--> statement-breakpoint

-- A registration change as rows (dispatch, learner, status, +1/-1): what the three registration
-- triggers hand to registration_stats_apply.
CREATE TYPE "registration_delta" AS ("dispatch_id" text, "learner_hash" bigint, "status" text, "delta" integer);
--> statement-breakpoint

CREATE FUNCTION "registration_stats_apply"(deltas "registration_delta"[], touched text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- Every touched dispatch gets a new registration version (a score change counts nothing but
  -- changes the report), and its counts move by the deltas. First, so that this transaction
  -- holds the dispatch_stat rows before it reads the dispatches' company and enabled flag below
  -- (dispatch_summary_apply takes the same rows first: see there).
  INSERT INTO "dispatch_stat" AS s ("dispatch_id", "version", "registrations", "completed", "incomplete", "not_attempted")
  SELECT t.id, txid_current(), coalesce(c.total, 0), coalesce(c.completed, 0), coalesce(c.incomplete, 0), coalesce(c.not_attempted, 0)
  FROM (SELECT DISTINCT unnest(touched) AS id) AS t
  LEFT JOIN (
    SELECT "dispatch_id",
      sum("delta") AS total,
      sum("delta") FILTER (WHERE "status" = 'completed') AS completed,
      sum("delta") FILTER (WHERE "status" = 'incomplete') AS incomplete,
      sum("delta") FILTER (WHERE "status" = 'not attempted') AS not_attempted
    FROM unnest(deltas) GROUP BY "dispatch_id"
  ) AS c ON c."dispatch_id" = t.id
  ORDER BY t.id
  ON CONFLICT ("dispatch_id") DO UPDATE SET
    "version" = greatest(s."version" + 1, txid_current()),
    "registrations" = s."registrations" + excluded."registrations",
    "completed" = s."completed" + excluded."completed",
    "incomplete" = s."incomplete" + excluded."incomplete",
    "not_attempted" = s."not_attempted" + excluded."not_attempted";

  IF coalesce(array_length(deltas, 1), 0) = 0 THEN
    RETURN;
  END IF;

  -- Learners: a learner counts while it has at least one live registration (in all, or of a status).
  WITH "per_learner" AS (
    SELECT "dispatch_id", "learner_hash",
      sum("delta")::int AS total,
      coalesce(sum("delta") FILTER (WHERE "status" = 'completed'), 0)::int AS completed,
      coalesce(sum("delta") FILTER (WHERE "status" = 'incomplete'), 0)::int AS incomplete,
      coalesce(sum("delta") FILTER (WHERE "status" = 'not attempted'), 0)::int AS not_attempted
    FROM unnest(deltas) GROUP BY "dispatch_id", "learner_hash"
  ), "moved" AS (
    SELECT * FROM "per_learner" WHERE (total, completed, incomplete, not_attempted) <> (0, 0, 0, 0)
  ), "written" AS (
    INSERT INTO "dispatch_learner" AS l ("dispatch_id", "learner_hash", "registrations", "completed", "incomplete", "not_attempted")
    SELECT "dispatch_id", "learner_hash", total, completed, incomplete, not_attempted FROM "moved"
    ORDER BY "dispatch_id", "learner_hash"
    ON CONFLICT ("dispatch_id", "learner_hash") DO UPDATE SET
      "registrations" = l."registrations" + excluded."registrations",
      "completed" = l."completed" + excluded."completed",
      "incomplete" = l."incomplete" + excluded."incomplete",
      "not_attempted" = l."not_attempted" + excluded."not_attempted"
    RETURNING l."dispatch_id", l."learner_hash", l."registrations", l."completed", l."incomplete", l."not_attempted"
  ), "flips" AS (
    -- (now > 0) - (before > 0) per count, before = now - delta.
    SELECT w."dispatch_id",
      sum((w."registrations" > 0)::int - (w."registrations" - m.total > 0)::int) AS learners,
      sum((w."completed" > 0)::int - (w."completed" - m.completed > 0)::int) AS learners_completed,
      sum((w."incomplete" > 0)::int - (w."incomplete" - m.incomplete > 0)::int) AS learners_incomplete,
      sum((w."not_attempted" > 0)::int - (w."not_attempted" - m.not_attempted > 0)::int) AS learners_not_attempted
    FROM "written" AS w JOIN "moved" AS m USING ("dispatch_id", "learner_hash")
    GROUP BY w."dispatch_id"
  )
  UPDATE "dispatch_stat" AS s SET
    "learners" = s."learners" + f.learners,
    "learners_completed" = s."learners_completed" + f.learners_completed,
    "learners_incomplete" = s."learners_incomplete" + f.learners_incomplete,
    "learners_not_attempted" = s."learners_not_attempted" + f.learners_not_attempted
  FROM "flips" AS f
  WHERE s."dispatch_id" = f."dispatch_id" AND (f.learners, f.learners_completed, f.learners_incomplete, f.learners_not_attempted) <> (0, 0, 0, 0);

  -- The live registrations of a company's (and a course's) live dispatches (the staff summary
  -- card), read with the dispatch's current company, course and flag (a fresh snapshot, after the
  -- lock taken above).
  WITH "moves" AS (
    SELECT d."destination_id" AS company_id, d."course_id", d."enabled", p.delta
    FROM (
      SELECT "dispatch_id", sum("delta") AS delta FROM unnest(deltas) GROUP BY "dispatch_id" HAVING sum("delta") <> 0
    ) AS p JOIN "dispatch" AS d ON d."id" = p."dispatch_id"
    WHERE d."removed_at" IS NULL
  )
  INSERT INTO "dispatch_summary" AS s ("company_id", "enabled", "active_registrations")
  SELECT company_id, "enabled", sum(delta) FROM "moves"
  GROUP BY company_id, "enabled" ORDER BY company_id, "enabled"
  ON CONFLICT ("company_id", "enabled") DO UPDATE SET "active_registrations" = s."active_registrations" + excluded."active_registrations";
  WITH "moves" AS (
    SELECT d."destination_id" AS company_id, d."course_id", d."enabled", p.delta
    FROM (
      SELECT "dispatch_id", sum("delta") AS delta FROM unnest(deltas) GROUP BY "dispatch_id" HAVING sum("delta") <> 0
    ) AS p JOIN "dispatch" AS d ON d."id" = p."dispatch_id"
    WHERE d."removed_at" IS NULL
  )
  INSERT INTO "dispatch_course_summary" AS s ("course_id", "enabled", "active_registrations")
  SELECT "course_id", "enabled", sum(delta) FROM "moves"
  GROUP BY "course_id", "enabled" ORDER BY "course_id", "enabled"
  ON CONFLICT ("course_id", "enabled") DO UPDATE SET "active_registrations" = s."active_registrations" + excluded."active_registrations";
END $$;
--> statement-breakpoint

CREATE FUNCTION "registration_stats_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(SELECT ROW("dispatch_id", "learner_hash", "completion_status", 1)::"registration_delta" FROM new_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT DISTINCT "dispatch_id" FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_stats_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(
      SELECT ROW("dispatch_id", "learner_hash", "completion_status", 1)::"registration_delta" FROM new_rows WHERE "removed_at" IS NULL
      UNION ALL
      SELECT ROW("dispatch_id", "learner_hash", "completion_status", -1)::"registration_delta" FROM old_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT "dispatch_id" FROM new_rows UNION SELECT "dispatch_id" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_stats_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_stats_apply"(
    ARRAY(SELECT ROW("dispatch_id", "learner_hash", "completion_status", -1)::"registration_delta" FROM old_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT DISTINCT "dispatch_id" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_stats_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_learner";
  UPDATE "dispatch_stat" SET "version" = greatest("version" + 1, txid_current()), "registrations" = 0, "completed" = 0,
    "incomplete" = 0, "not_attempted" = 0, "learners" = 0, "learners_completed" = 0, "learners_incomplete" = 0,
    "learners_not_attempted" = 0;
  UPDATE "dispatch_summary" SET "active_registrations" = 0;
  UPDATE "dispatch_course_summary" SET "active_registrations" = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registration_stats_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_stats_insert"();
--> statement-breakpoint
CREATE TRIGGER "registration_stats_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_stats_update"();
--> statement-breakpoint
CREATE TRIGGER "registration_stats_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_stats_delete"();
--> statement-breakpoint
CREATE TRIGGER "registration_stats_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "registration_stats_truncate"();
--> statement-breakpoint

-- A dispatch change as rows (company, enabled, its summary values, +1/-1).
CREATE TYPE "dispatch_delta" AS (
  "company_id" text, "course_id" text, "enabled" boolean, "sign" integer, "dispatch_id" text,
  "registration_count" integer, "registration_cap" integer
);
--> statement-breakpoint

CREATE FUNCTION "dispatch_summary_apply"(deltas "dispatch_delta"[], companies text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- Every dispatch has its stat row (its counts start at zero).
  INSERT INTO "dispatch_stat" ("dispatch_id")
  SELECT DISTINCT "dispatch_id" FROM unnest(deltas) WHERE "sign" > 0
  ORDER BY 1
  ON CONFLICT ("dispatch_id") DO NOTHING;
  -- Lock the stat rows before reading their registrations: a registration statement running
  -- meanwhile either committed before (its count is read here) or waits, and then reads this
  -- dispatch's new company and flag (registration_stats_apply takes these rows first).
  PERFORM 1 FROM "dispatch_stat"
  WHERE "dispatch_id" IN (SELECT "dispatch_id" FROM unnest(deltas))
  ORDER BY "dispatch_id" FOR UPDATE;

  INSERT INTO "dispatch_summary" AS s ("company_id", "enabled", "version", "dispatches", "registrations",
    "capped_registrations", "capped_capacity", "unlimited", "active_registrations")
  SELECT k.company_id, k.enabled, txid_current(),
    coalesce(sum(d."sign"), 0),
    coalesce(sum(d."sign" * d."registration_count"), 0),
    coalesce(sum(d."sign" * d."registration_count") FILTER (WHERE d."registration_cap" > 0), 0),
    coalesce(sum(d."sign" * d."registration_cap") FILTER (WHERE d."registration_cap" > 0), 0),
    coalesce(sum(d."sign") FILTER (WHERE d."registration_cap" <= 0), 0),
    coalesce(sum(d."sign" * st."registrations"), 0)
  FROM (SELECT DISTINCT c AS company_id, e AS enabled FROM unnest(companies) AS c, (VALUES (true), (false)) AS v(e)) AS k
  LEFT JOIN unnest(deltas) AS d ON d."company_id" = k.company_id AND d."enabled" = k.enabled
  LEFT JOIN "dispatch_stat" AS st ON st."dispatch_id" = d."dispatch_id"
  GROUP BY k.company_id, k.enabled
  ORDER BY k.company_id, k.enabled
  ON CONFLICT ("company_id", "enabled") DO UPDATE SET
    "version" = greatest(s."version" + 1, txid_current()),
    "dispatches" = s."dispatches" + excluded."dispatches",
    "registrations" = s."registrations" + excluded."registrations",
    "capped_registrations" = s."capped_registrations" + excluded."capped_registrations",
    "capped_capacity" = s."capped_capacity" + excluded."capped_capacity",
    "unlimited" = s."unlimited" + excluded."unlimited",
    "active_registrations" = s."active_registrations" + excluded."active_registrations";

  INSERT INTO "dispatch_course_summary" AS s ("course_id", "enabled", "dispatches", "registrations",
    "capped_registrations", "capped_capacity", "unlimited", "active_registrations")
  SELECT d."course_id", d."enabled",
    sum(d."sign"),
    sum(d."sign" * d."registration_count"),
    coalesce(sum(d."sign" * d."registration_count") FILTER (WHERE d."registration_cap" > 0), 0),
    coalesce(sum(d."sign" * d."registration_cap") FILTER (WHERE d."registration_cap" > 0), 0),
    coalesce(sum(d."sign") FILTER (WHERE d."registration_cap" <= 0), 0),
    coalesce(sum(d."sign" * st."registrations"), 0)
  FROM unnest(deltas) AS d
  LEFT JOIN "dispatch_stat" AS st ON st."dispatch_id" = d."dispatch_id"
  GROUP BY d."course_id", d."enabled"
  ORDER BY d."course_id", d."enabled"
  ON CONFLICT ("course_id", "enabled") DO UPDATE SET
    "dispatches" = s."dispatches" + excluded."dispatches",
    "registrations" = s."registrations" + excluded."registrations",
    "capped_registrations" = s."capped_registrations" + excluded."capped_registrations",
    "capped_capacity" = s."capped_capacity" + excluded."capped_capacity",
    "unlimited" = s."unlimited" + excluded."unlimited",
    "active_registrations" = s."active_registrations" + excluded."active_registrations";
END $$;
--> statement-breakpoint

CREATE FUNCTION "dispatch_summary_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_apply"(
    ARRAY(SELECT ROW("destination_id", "course_id", "enabled", 1, "id", "registration_count", "registration_cap")::"dispatch_delta"
          FROM new_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT DISTINCT "destination_id" FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_apply"(
    ARRAY(
      SELECT ROW("destination_id", "course_id", "enabled", 1, "id", "registration_count", "registration_cap")::"dispatch_delta"
      FROM new_rows WHERE "removed_at" IS NULL
      UNION ALL
      SELECT ROW("destination_id", "course_id", "enabled", -1, "id", "registration_count", "registration_cap")::"dispatch_delta"
      FROM old_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT "destination_id" FROM new_rows UNION SELECT "destination_id" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_apply"(
    ARRAY(SELECT ROW("destination_id", "course_id", "enabled", -1, "id", "registration_count", "registration_cap")::"dispatch_delta"
          FROM old_rows WHERE "removed_at" IS NULL),
    ARRAY(SELECT DISTINCT "destination_id" FROM old_rows));
  DELETE FROM "dispatch_stat" WHERE "dispatch_id" IN (SELECT "id" FROM old_rows);
  DELETE FROM "dispatch_learner" WHERE "dispatch_id" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_summary";
  DELETE FROM "dispatch_course_summary";
  DELETE FROM "dispatch_stat";
  DELETE FROM "dispatch_learner";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_insert" AFTER INSERT ON "dispatch"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_insert"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_update" AFTER UPDATE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_update"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_delete" AFTER DELETE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_delete"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_truncate" AFTER TRUNCATE ON "dispatch"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_truncate"();
--> statement-breakpoint

CREATE TYPE "activity_log_delta" AS ("day" date, "action" text, "user_id" uuid, "sign" integer);
--> statement-breakpoint
CREATE FUNCTION "activity_log_days_apply"(deltas "activity_log_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_log_day" AS a ("day", "action", "rows")
  SELECT "day", coalesce("action", '*'), sum("sign")::int FROM unnest(deltas)
  GROUP BY GROUPING SETS (("day", "action"), ("day")) ORDER BY 1, 2
  ON CONFLICT ("day", "action") DO UPDATE SET "rows" = a."rows" + excluded."rows";
  INSERT INTO "activity_log_user_day" AS a ("user_id", "day", "rows")
  SELECT "user_id", "day", sum("sign")::int FROM unnest(deltas)
  WHERE "user_id" IS NOT NULL GROUP BY "user_id", "day" ORDER BY "user_id", "day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "rows" = a."rows" + excluded."rows";
END $$;
--> statement-breakpoint
CREATE FUNCTION "activity_log_days_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "activity_log_days_apply"(ARRAY(
    SELECT ROW(("created_at" AT TIME ZONE 'UTC')::date, "action", "user_id", 1)::"activity_log_delta" FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "activity_log_days_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "activity_log_days_apply"(ARRAY(
    SELECT ROW(("created_at" AT TIME ZONE 'UTC')::date, "action", "user_id", 1)::"activity_log_delta" FROM new_rows
    UNION ALL
    SELECT ROW(("created_at" AT TIME ZONE 'UTC')::date, "action", "user_id", -1)::"activity_log_delta" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "activity_log_days_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "activity_log_days_apply"(ARRAY(
    SELECT ROW(("created_at" AT TIME ZONE 'UTC')::date, "action", "user_id", -1)::"activity_log_delta" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "activity_log_days_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "activity_log_day";
  DELETE FROM "activity_log_user_day";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "activity_log_days_insert" AFTER INSERT ON "activity_log"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "activity_log_days_insert"();
--> statement-breakpoint
CREATE TRIGGER "activity_log_days_update" AFTER UPDATE ON "activity_log"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "activity_log_days_update"();
--> statement-breakpoint
CREATE TRIGGER "activity_log_days_delete" AFTER DELETE ON "activity_log"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "activity_log_days_delete"();
--> statement-breakpoint
CREATE TRIGGER "activity_log_days_truncate" AFTER TRUNCATE ON "activity_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_log_days_truncate"();
--> statement-breakpoint

-- Existing data (an upgraded database): the aggregates from the rows.
INSERT INTO "dispatch_stat" ("dispatch_id", "version", "registrations", "completed", "incomplete", "not_attempted",
  "learners", "learners_completed", "learners_incomplete", "learners_not_attempted")
SELECT d."id", d."registration_version",
  coalesce(r.total, 0), coalesce(r.completed, 0), coalesce(r.incomplete, 0), coalesce(r.not_attempted, 0),
  coalesce(l.learners, 0), coalesce(l.completed, 0), coalesce(l.incomplete, 0), coalesce(l.not_attempted, 0)
FROM "dispatch" AS d
LEFT JOIN (
  SELECT "dispatch_id", count(*) AS total,
    count(*) FILTER (WHERE "completion_status" = 'completed') AS completed,
    count(*) FILTER (WHERE "completion_status" = 'incomplete') AS incomplete,
    count(*) FILTER (WHERE "completion_status" = 'not attempted') AS not_attempted
  FROM "registration" WHERE "removed_at" IS NULL GROUP BY "dispatch_id"
) AS r ON r."dispatch_id" = d."id"
LEFT JOIN (
  SELECT "dispatch_id", count(DISTINCT "learner_hash") AS learners,
    count(DISTINCT "learner_hash") FILTER (WHERE "completion_status" = 'completed') AS completed,
    count(DISTINCT "learner_hash") FILTER (WHERE "completion_status" = 'incomplete') AS incomplete,
    count(DISTINCT "learner_hash") FILTER (WHERE "completion_status" = 'not attempted') AS not_attempted
  FROM "registration" WHERE "removed_at" IS NULL GROUP BY "dispatch_id"
) AS l ON l."dispatch_id" = d."id";
--> statement-breakpoint
INSERT INTO "dispatch_learner" ("dispatch_id", "learner_hash", "registrations", "completed", "incomplete", "not_attempted")
SELECT "dispatch_id", "learner_hash", count(*),
  count(*) FILTER (WHERE "completion_status" = 'completed'),
  count(*) FILTER (WHERE "completion_status" = 'incomplete'),
  count(*) FILTER (WHERE "completion_status" = 'not attempted')
FROM "registration" WHERE "removed_at" IS NULL GROUP BY "dispatch_id", "learner_hash";
--> statement-breakpoint
INSERT INTO "dispatch_summary" ("company_id", "enabled", "version", "dispatches", "registrations",
  "capped_registrations", "capped_capacity", "unlimited", "active_registrations")
SELECT d."destination_id", d."enabled", txid_current(), count(*),
  coalesce(sum(d."registration_count"), 0),
  coalesce(sum(d."registration_count") FILTER (WHERE d."registration_cap" > 0), 0),
  coalesce(sum(d."registration_cap") FILTER (WHERE d."registration_cap" > 0), 0),
  count(*) FILTER (WHERE d."registration_cap" <= 0),
  coalesce(sum(s."registrations"), 0)
FROM "dispatch" AS d JOIN "dispatch_stat" AS s ON s."dispatch_id" = d."id"
WHERE d."removed_at" IS NULL
GROUP BY d."destination_id", d."enabled";
--> statement-breakpoint
INSERT INTO "dispatch_course_summary" ("course_id", "enabled", "dispatches", "registrations",
  "capped_registrations", "capped_capacity", "unlimited", "active_registrations")
SELECT d."course_id", d."enabled", count(*),
  coalesce(sum(d."registration_count"), 0),
  coalesce(sum(d."registration_count") FILTER (WHERE d."registration_cap" > 0), 0),
  coalesce(sum(d."registration_cap") FILTER (WHERE d."registration_cap" > 0), 0),
  count(*) FILTER (WHERE d."registration_cap" <= 0),
  coalesce(sum(s."registrations"), 0)
FROM "dispatch" AS d JOIN "dispatch_stat" AS s ON s."dispatch_id" = d."id"
WHERE d."removed_at" IS NULL
GROUP BY d."course_id", d."enabled";
--> statement-breakpoint
INSERT INTO "activity_log_day" ("day", "action", "rows")
SELECT "day", coalesce("action", '*'), count(*)
FROM (SELECT ("created_at" AT TIME ZONE 'UTC')::date AS "day", "action" FROM "activity_log") AS l
GROUP BY GROUPING SETS (("day", "action"), ("day"));
--> statement-breakpoint
INSERT INTO "activity_log_user_day" ("user_id", "day", "rows")
SELECT "user_id", ("created_at" AT TIME ZONE 'UTC')::date, count(*) FROM "activity_log" WHERE "user_id" IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint

-- Off the dispatch row: kept in dispatch_stat now.
ALTER TABLE "dispatch" DROP COLUMN "active_registration_count";
--> statement-breakpoint
ALTER TABLE "dispatch" DROP COLUMN "registration_version";
--> statement-breakpoint

-- Dispatch list: one index per sort key, with and without the status filter, over live rows.
-- The name a lower() key is made of is INCLUDEd: PostgreSQL plans an index-only scan only when
-- the index holds the columns the expression reads, and a deep page walks its offset index-only.
-- course_id and destination_id are INCLUDEd too: a search that matches many dispatches walks the
-- sort index and checks them there, without visiting the table.
DROP INDEX IF EXISTS "dispatch_destination_name_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_course_title_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_registration_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "dispatch_enabled_idx";
--> statement-breakpoint
CREATE INDEX "dispatch_list_client_idx" ON "dispatch" (lower("destination_name"), "id") INCLUDE ("destination_name", "course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_course_idx" ON "dispatch" (lower("course_title"), "id") INCLUDE ("course_title", "course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_registrations_idx" ON "dispatch" ("registration_count", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_status_client_idx" ON "dispatch" ("enabled", lower("destination_name"), "id") INCLUDE ("destination_name", "course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_status_course_idx" ON "dispatch" ("enabled", lower("course_title"), "id") INCLUDE ("course_title", "course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_removed_idx" ON "dispatch" ("id") WHERE "removed_at" IS NOT NULL;
--> statement-breakpoint
-- A search's matches by course and by company, with every sort key: collected index-only.
CREATE INDEX "dispatch_search_course_idx" ON "dispatch" ("course_id")
  INCLUDE ("id", "enabled", "registration_count", "destination_name", "course_title") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_search_company_idx" ON "dispatch" ("destination_id")
  INCLUDE ("id", "enabled", "registration_count", "destination_name", "course_title") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "dispatch_list_status_registrations_idx" ON "dispatch" ("enabled", "registration_count", "id") INCLUDE ("course_id", "destination_id") WHERE "removed_at" IS NULL;
--> statement-breakpoint

-- Completion report: its order, with and without a status, over live rows, carrying the learner
-- hash so totals over a date window are index-only.
DROP INDEX IF EXISTS "registration_dispatch_last_access_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "registration_report_status_idx";
--> statement-breakpoint
CREATE INDEX "registration_report_idx" ON "registration" ("dispatch_id", "last_access_date" DESC NULLS LAST, "id")
  INCLUDE ("learner_hash") WHERE "removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "registration_report_status_idx" ON "registration" ("dispatch_id", "completion_status", "last_access_date" DESC NULLS LAST, "id")
  INCLUDE ("learner_hash") WHERE "removed_at" IS NULL;
--> statement-breakpoint

-- Logs: a user's rows of one action (the two filters together).
CREATE INDEX "activity_log_user_action_idx" ON "activity_log" ("user_id", "action", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
--> statement-breakpoint

-- Searches (where the extensions exist): dispatch ids, a dispatch's learners, course titles and
-- company names (small tables, but searched on every dispatch list search).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "dispatch_id_trgm_idx" ON "dispatch" USING gin ("id" gin_trgm_ops) WHERE "removed_at" IS NULL;
    CREATE INDEX IF NOT EXISTS "activity_log_search_trgm_idx" ON "activity_log" USING gin (
      (coalesce("details"::text, '') || ' ' || coalesce("ip_address", '') || ' ' ||
       coalesce("actor_name", '') || ' ' || coalesce("actor_email", '')) gin_trgm_ops
    );
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
      CREATE INDEX IF NOT EXISTS "registration_learner_search_idx" ON "registration" USING gin (
        "dispatch_id",
        (lower("learner_first_name" || ' ' || "learner_last_name" || ' ' || "learner_email")) gin_trgm_ops
      ) WHERE "removed_at" IS NULL;
    END IF;
  END IF;
END $$;
