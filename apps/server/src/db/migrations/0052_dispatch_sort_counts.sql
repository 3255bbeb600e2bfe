-- Live dispatches counted by the staff list's sort keys: by company name (the client and status
-- sorts) and by course title, each per enabled flag. A numbered page deep in the staff list walked
-- the sort index past every dispatch before it, a quarter of the list for a page a quarter of the
-- way in, work that grows with the list. With these counts the key that holds the page's first row
-- is found by summing the counts of the keys before it, and the page is walked from that key
-- (dispatches-page.sql.ts, `placed`). Kept by statement-level triggers on "dispatch", upserting
-- in key order as the summary triggers of 0008 do; an update that changes none of a dispatch's
-- keys, its flag or its removal (every registration statement updates its dispatches' counts)
-- writes nothing here.
CREATE TABLE "dispatch_sort_count" (
  "sort" text NOT NULL,
  "key" text NOT NULL,
  "enabled" boolean NOT NULL,
  "dispatches" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "dispatch_sort_count_pkey" PRIMARY KEY ("sort", "key", "enabled")
);
--> statement-breakpoint
-- The status sort (flag, then company name) and a status filter read one flag's keys in order.
CREATE INDEX "dispatch_sort_count_flag_idx" ON "dispatch_sort_count" ("sort", "enabled", "key") INCLUDE ("dispatches");
--> statement-breakpoint
INSERT INTO "dispatch_sort_count" ("sort", "key", "enabled", "dispatches")
SELECT 'client', "destination_key", "enabled", count(*) FROM "dispatch" WHERE "removed_at" IS NULL GROUP BY 2, 3
UNION ALL
SELECT 'course', "course_key", "enabled", count(*) FROM "dispatch" WHERE "removed_at" IS NULL GROUP BY 2, 3;
--> statement-breakpoint
-- A dispatch's keys as signed rows: +1 for a live row as it is now, -1 as it was.
CREATE TYPE "dispatch_sort_delta" AS ("destination_key" text, "course_key" text, "enabled" boolean, "sign" integer);
--> statement-breakpoint
CREATE FUNCTION "dispatch_sort_count_apply"(deltas "dispatch_sort_delta"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(deltas) = 0 THEN RETURN; END IF;
  INSERT INTO "dispatch_sort_count" AS c ("sort", "key", "enabled", "dispatches")
  SELECT k."sort", k."key", k."enabled", sum(k."sign")
  FROM (
    SELECT 'client' AS "sort", d."destination_key" AS "key", d."enabled", d."sign" FROM unnest(deltas) AS d
    UNION ALL
    SELECT 'course', d."course_key", d."enabled", d."sign" FROM unnest(deltas) AS d
  ) AS k
  GROUP BY k."sort", k."key", k."enabled"
  HAVING sum(k."sign") <> 0
  ORDER BY k."sort", k."key", k."enabled"
  ON CONFLICT ("sort", "key", "enabled") DO UPDATE SET "dispatches" = c."dispatches" + excluded."dispatches";
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_sort_count_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_sort_count_apply"(ARRAY(
    SELECT ROW("destination_key", "course_key", "enabled", 1)::"dispatch_sort_delta"
    FROM new_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_sort_count_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_sort_count_apply"(ARRAY(
    SELECT ROW(x."destination_key", x."course_key", x."enabled", x."sign")::"dispatch_sort_delta"
    FROM old_rows AS o JOIN new_rows AS n ON n."id" = o."id"
    CROSS JOIN LATERAL (
      SELECT o."destination_key", o."course_key", o."enabled", -1 AS "sign" WHERE o."removed_at" IS NULL
      UNION ALL
      SELECT n."destination_key", n."course_key", n."enabled", 1 WHERE n."removed_at" IS NULL
    ) AS x
    WHERE (o."removed_at" IS NULL, o."destination_key", o."course_key", o."enabled")
      IS DISTINCT FROM (n."removed_at" IS NULL, n."destination_key", n."course_key", n."enabled")));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_sort_count_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_sort_count_apply"(ARRAY(
    SELECT ROW("destination_key", "course_key", "enabled", -1)::"dispatch_sort_delta"
    FROM old_rows WHERE "removed_at" IS NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_sort_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "dispatch_sort_count";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_sort_count_insert" AFTER INSERT ON "dispatch"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_sort_count_insert"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_sort_count_update" AFTER UPDATE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_sort_count_update"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_sort_count_delete" AFTER DELETE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_sort_count_delete"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_sort_count_truncate" AFTER TRUNCATE ON "dispatch"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_sort_count_truncate"();
