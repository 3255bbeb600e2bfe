-- The completion report's totals for a last-access window (migration 0008 keeps them only for a
-- status or none). Counting the window's registrations read every matching entry of the report
-- index: for a large dispatch a pass over tens of thousands of entries per request, growing with
-- the dispatch. Live registrations per dispatch, completion status and UTC day of last access,
-- kept by statement triggers as the other report counts are, answer any window of whole UTC days
-- (the report's days) from at most one row per day and status. The distinct learners of a window
-- equal its registrations when no learner holds two live registrations on the dispatch
-- (dispatch_stat's registrations = learners); otherwise the report still counts the window.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE TABLE "dispatch_access_day" (
  "dispatch_id" text NOT NULL,
  "completion_status" text NOT NULL,
  "day" date NOT NULL,
  "registrations" integer DEFAULT 0 NOT NULL,
  -- INCLUDE: a window's sum is read index-only.
  CONSTRAINT "dispatch_access_day_pkey" PRIMARY KEY ("dispatch_id", "completion_status", "day") INCLUDE ("registrations")
);
--> statement-breakpoint
CREATE TYPE "access_day_delta" AS ("dispatch_id" text, "completion_status" text, "day" date, "delta" integer);
--> statement-breakpoint
CREATE FUNCTION "dispatch_access_day_apply"(deltas "access_day_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(deltas, 1), 0) = 0 THEN
    RETURN;
  END IF;
  -- Sorted by key so concurrent writers take the rows' locks in one order.
  INSERT INTO "dispatch_access_day" AS a ("dispatch_id", "completion_status", "day", "registrations")
  SELECT "dispatch_id", "completion_status", "day", sum("delta")::int FROM unnest(deltas)
  WHERE "day" IS NOT NULL GROUP BY 1, 2, 3 HAVING sum("delta") <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("dispatch_id", "completion_status", "day") DO UPDATE SET "registrations" = a."registrations" + excluded."registrations";
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_access_day_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"access_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_access_day_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, 1)::"access_day_delta"
    FROM new_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL
    UNION ALL
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"access_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_access_day_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_access_day_apply"(ARRAY(
    SELECT ROW("dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, -1)::"access_day_delta"
    FROM old_rows WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_access_day_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_access_day";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_access_day_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_access_day_insert"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_access_day_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_access_day_update"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_access_day_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_access_day_delete"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_access_day_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_access_day_truncate"();
--> statement-breakpoint
INSERT INTO "dispatch_access_day" ("dispatch_id", "completion_status", "day", "registrations")
SELECT "dispatch_id", "completion_status", ("last_access_date" AT TIME ZONE 'UTC')::date, count(*)::int
FROM "registration" WHERE "removed_at" IS NULL AND "last_access_date" IS NOT NULL
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
