-- Charts: aggregates the charts read, kept by statement-level triggers like those of
-- migration 0008 (every writer keeps them without knowing about them). Months and weeks are UTC
-- (date_trunc of the instant AT TIME ZONE 'UTC'); weeks start on Monday (ISO).
--
-- - dispatch_month: per dispatch and month of created_date, its live registrations;
-- - dispatch_week: per dispatch and week of completed_date, its live registrations completed;
-- - dispatch_success: per dispatch, its live registrations passed and failed (the completion
--   counts are dispatch_stat's);
-- - company_month: per company, enabled flag and month, the live registrations of its live
--   dispatches (the dashboard's "registrations per month" without a search: a few rows per
--   company), with a version (greatest(previous + 1, txid_current()), as in 0008) that moves with
--   every change of its counts: the dashboard charts cache per the largest.
-- - dispatch_cap_usage_idx: the live capped dispatches by share of their cap used (the staff
--   dashboard's "nearest their cap" reads ten entries of it).
--
-- The triggers are named after 0008's (registration_trend_* after registration_stats_*,
-- dispatch_trend_* after dispatch_summary_*): PostgreSQL fires triggers of an event in name
-- order, so these run once 0008's have locked the statement's dispatch_stat rows, and read each
-- dispatch's company and flag under that lock (see registration_stats_apply).
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE TABLE "dispatch_month" (
  "dispatch_id" text NOT NULL,
  "month" date NOT NULL,
  "registrations" integer DEFAULT 0 NOT NULL,
  -- INCLUDE: a dashboard search reads its matching dispatches' months index-only.
  CONSTRAINT "dispatch_month_pkey" PRIMARY KEY ("dispatch_id", "month") INCLUDE ("registrations")
);
--> statement-breakpoint
CREATE TABLE "dispatch_week" (
  "dispatch_id" text NOT NULL,
  "week" date NOT NULL,
  "completions" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "dispatch_week_pkey" PRIMARY KEY ("dispatch_id", "week")
);
--> statement-breakpoint
CREATE TABLE "dispatch_success" (
  "dispatch_id" text PRIMARY KEY NOT NULL,
  "passed" integer DEFAULT 0 NOT NULL,
  "failed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_month" (
  "company_id" text NOT NULL,
  "enabled" boolean NOT NULL,
  "month" date NOT NULL,
  "version" bigint DEFAULT 0 NOT NULL,
  "registrations" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "company_month_pkey" PRIMARY KEY ("company_id", "enabled", "month")
);
--> statement-breakpoint
-- The staff dashboard's version: the largest of every company's (one index entry read).
CREATE INDEX "company_month_version_idx" ON "company_month" ("version");
--> statement-breakpoint
CREATE INDEX "dispatch_cap_usage_idx" ON "dispatch" ((("registration_count")::float8 / "registration_cap") DESC, "id")
  WHERE "removed_at" IS NULL AND "registration_cap" > 0;
--> statement-breakpoint

-- A registration change as rows: dispatch, month created, week completed, success, +1/-1.
CREATE TYPE "registration_trend_delta" AS (
  "dispatch_id" text, "month" date, "week" date, "success_status" text, "delta" integer
);
--> statement-breakpoint
CREATE FUNCTION "registration_trend_apply"(deltas "registration_trend_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(deltas, 1), 0) = 0 THEN
    RETURN;
  END IF;

  INSERT INTO "dispatch_month" AS m ("dispatch_id", "month", "registrations")
  SELECT "dispatch_id", "month", sum("delta")::int FROM unnest(deltas)
  WHERE "month" IS NOT NULL GROUP BY 1, 2 HAVING sum("delta") <> 0 ORDER BY 1, 2
  ON CONFLICT ("dispatch_id", "month") DO UPDATE SET "registrations" = m."registrations" + excluded."registrations";

  INSERT INTO "dispatch_week" AS w ("dispatch_id", "week", "completions")
  SELECT "dispatch_id", "week", sum("delta")::int FROM unnest(deltas)
  WHERE "week" IS NOT NULL GROUP BY 1, 2 HAVING sum("delta") <> 0 ORDER BY 1, 2
  ON CONFLICT ("dispatch_id", "week") DO UPDATE SET "completions" = w."completions" + excluded."completions";

  INSERT INTO "dispatch_success" AS s ("dispatch_id", "passed", "failed")
  SELECT "dispatch_id",
    coalesce(sum("delta") FILTER (WHERE "success_status" = 'passed'), 0)::int,
    coalesce(sum("delta") FILTER (WHERE "success_status" = 'failed'), 0)::int
  FROM unnest(deltas) GROUP BY 1
  HAVING coalesce(sum("delta") FILTER (WHERE "success_status" = 'passed'), 0) <> 0
      OR coalesce(sum("delta") FILTER (WHERE "success_status" = 'failed'), 0) <> 0
  ORDER BY 1
  ON CONFLICT ("dispatch_id") DO UPDATE SET
    "passed" = s."passed" + excluded."passed",
    "failed" = s."failed" + excluded."failed";

  INSERT INTO "company_month" AS c ("company_id", "enabled", "month", "version", "registrations")
  SELECT d."destination_id", d."enabled", p."month", txid_current(), sum(p."delta")
  FROM unnest(deltas) AS p JOIN "dispatch" AS d ON d."id" = p."dispatch_id"
  WHERE p."month" IS NOT NULL AND d."removed_at" IS NULL
  GROUP BY 1, 2, 3 HAVING sum(p."delta") <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("company_id", "enabled", "month") DO UPDATE SET
    "version" = greatest(c."version" + 1, txid_current()),
    "registrations" = c."registrations" + excluded."registrations";
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_trend_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", 1)::"registration_trend_delta"
    FROM new_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_trend_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", 1)::"registration_trend_delta"
    FROM new_rows WHERE "removed_at" IS NULL
    UNION ALL
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", -1)::"registration_trend_delta"
    FROM old_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_trend_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "registration_trend_apply"(ARRAY(
    SELECT ROW("dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date,
      date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, "success_status", -1)::"registration_trend_delta"
    FROM old_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_trend_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_month";
  DELETE FROM "dispatch_week";
  DELETE FROM "dispatch_success";
  -- Rows stay (at zero) so that their versions only grow.
  UPDATE "company_month" SET "registrations" = 0, "version" = greatest("version" + 1, txid_current());
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registration_trend_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_trend_insert"();
--> statement-breakpoint
CREATE TRIGGER "registration_trend_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_trend_update"();
--> statement-breakpoint
CREATE TRIGGER "registration_trend_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_trend_delete"();
--> statement-breakpoint
CREATE TRIGGER "registration_trend_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "registration_trend_truncate"();
--> statement-breakpoint

-- A dispatch that changes company or flag, or is removed or comes back, moves its months between
-- company_month rows (read from dispatch_month: the dispatch's registrations are not re-read).
CREATE FUNCTION "dispatch_trend_move"(moves "dispatch_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(moves, 1), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "company_month" AS c ("company_id", "enabled", "month", "version", "registrations")
  SELECT v."company_id", v."enabled", m."month", txid_current(), sum(v."sign" * m."registrations")
  FROM unnest(moves) AS v JOIN "dispatch_month" AS m ON m."dispatch_id" = v."dispatch_id"
  GROUP BY 1, 2, 3 HAVING sum(v."sign" * m."registrations") <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("company_id", "enabled", "month") DO UPDATE SET
    "version" = greatest(c."version" + 1, txid_current()),
    "registrations" = c."registrations" + excluded."registrations";
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_trend_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_trend_move"(ARRAY(
    WITH "changed" AS (
      SELECT o."id", o."destination_id" AS old_company, o."enabled" AS old_enabled, o."removed_at" IS NULL AS old_live,
        n."destination_id" AS new_company, n."enabled" AS new_enabled, n."removed_at" IS NULL AS new_live
      FROM old_rows AS o JOIN new_rows AS n ON n."id" = o."id"
      WHERE (o."destination_id", o."enabled", o."removed_at" IS NULL)
        IS DISTINCT FROM (n."destination_id", n."enabled", n."removed_at" IS NULL)
    )
    SELECT ROW(old_company, NULL, old_enabled, -1, "id", 0, 0)::"dispatch_delta" FROM "changed" WHERE old_live
    UNION ALL
    SELECT ROW(new_company, NULL, new_enabled, 1, "id", 0, 0)::"dispatch_delta" FROM "changed" WHERE new_live));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_trend_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_trend_move"(ARRAY(
    SELECT ROW("destination_id", NULL, "enabled", -1, "id", 0, 0)::"dispatch_delta" FROM old_rows WHERE "removed_at" IS NULL));
  DELETE FROM "dispatch_month" WHERE "dispatch_id" IN (SELECT "id" FROM old_rows);
  DELETE FROM "dispatch_week" WHERE "dispatch_id" IN (SELECT "id" FROM old_rows);
  DELETE FROM "dispatch_success" WHERE "dispatch_id" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_trend_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_month";
  DELETE FROM "dispatch_week";
  DELETE FROM "dispatch_success";
  UPDATE "company_month" SET "registrations" = 0, "version" = greatest("version" + 1, txid_current());
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_trend_update" AFTER UPDATE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_trend_update"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_trend_delete" AFTER DELETE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_trend_delete"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_trend_truncate" AFTER TRUNCATE ON "dispatch"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_trend_truncate"();
--> statement-breakpoint

-- Existing data (an upgraded database): the aggregates from the rows.
INSERT INTO "dispatch_month" ("dispatch_id", "month", "registrations")
SELECT "dispatch_id", date_trunc('month', "created_date" AT TIME ZONE 'UTC')::date, count(*)
FROM "registration" WHERE "removed_at" IS NULL AND "created_date" IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "dispatch_week" ("dispatch_id", "week", "completions")
SELECT "dispatch_id", date_trunc('week', "completed_date" AT TIME ZONE 'UTC')::date, count(*)
FROM "registration" WHERE "removed_at" IS NULL AND "completed_date" IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "dispatch_success" ("dispatch_id", "passed", "failed")
SELECT "dispatch_id", count(*) FILTER (WHERE "success_status" = 'passed'), count(*) FILTER (WHERE "success_status" = 'failed')
FROM "registration" WHERE "removed_at" IS NULL AND "success_status" IN ('passed', 'failed') GROUP BY 1;
--> statement-breakpoint
INSERT INTO "company_month" ("company_id", "enabled", "month", "version", "registrations")
SELECT d."destination_id", d."enabled", m."month", txid_current(), sum(m."registrations")
FROM "dispatch_month" AS m JOIN "dispatch" AS d ON d."id" = m."dispatch_id"
WHERE d."removed_at" IS NULL GROUP BY 1, 2, 3;
