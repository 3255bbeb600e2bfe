-- The staff list's summary cards over every company, kept: without it a staff page summed the
-- kept rows of every company (dispatch_summary, two rows a company), work that grows with the
-- number of companies. dispatch_summary_total holds those sums per enabled flag, kept by
-- statement-level triggers on dispatch_summary itself, so every writer of the per-company rows
-- (the dispatch and registration triggers of 0008, the bulk builds after a full listing, the
-- truncate trigger's delete) keeps the total with it and no writer has to know about it.
-- The statements that write dispatch_summary are those that write dispatches or registrations,
-- which already wait for the one dispatch_version row; the total's rows are taken in them after
-- the company rows, so they make writers wait no more than they do now.
CREATE TABLE "dispatch_summary_total" (
  "enabled" boolean PRIMARY KEY,
  "dispatches" integer DEFAULT 0 NOT NULL,
  "registrations" bigint DEFAULT 0 NOT NULL,
  "capped_registrations" bigint DEFAULT 0 NOT NULL,
  "capped_capacity" bigint DEFAULT 0 NOT NULL,
  "unlimited" integer DEFAULT 0 NOT NULL,
  "active_registrations" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "dispatch_summary_total" ("enabled", "dispatches", "registrations", "capped_registrations",
  "capped_capacity", "unlimited", "active_registrations")
SELECT v."enabled", coalesce(sum(s."dispatches"), 0), coalesce(sum(s."registrations"), 0),
  coalesce(sum(s."capped_registrations"), 0), coalesce(sum(s."capped_capacity"), 0),
  coalesce(sum(s."unlimited"), 0), coalesce(sum(s."active_registrations"), 0)
FROM (VALUES (false), (true)) AS v("enabled")
LEFT JOIN "dispatch_summary" AS s ON s."enabled" = v."enabled"
GROUP BY v."enabled";
--> statement-breakpoint
-- A statement's change to the company rows as signed rows, added to the two total rows. Both
-- rows are locked first, in key order, so two writers never take them in opposite orders.
CREATE FUNCTION "dispatch_summary_total_add"(deltas "dispatch_summary_total"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "dispatch_summary_total" ORDER BY "enabled" FOR UPDATE;
  UPDATE "dispatch_summary_total" AS t SET
    "dispatches" = t."dispatches" + d."dispatches",
    "registrations" = t."registrations" + d."registrations",
    "capped_registrations" = t."capped_registrations" + d."capped_registrations",
    "capped_capacity" = t."capped_capacity" + d."capped_capacity",
    "unlimited" = t."unlimited" + d."unlimited",
    "active_registrations" = t."active_registrations" + d."active_registrations"
  FROM (
    SELECT "enabled", sum("dispatches") AS "dispatches", sum("registrations") AS "registrations",
      sum("capped_registrations") AS "capped_registrations", sum("capped_capacity") AS "capped_capacity",
      sum("unlimited") AS "unlimited", sum("active_registrations") AS "active_registrations"
    FROM unnest(deltas) GROUP BY "enabled"
  ) AS d
  WHERE t."enabled" = d."enabled";
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_total_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_total_add"(ARRAY(
    SELECT ROW("enabled", "dispatches", "registrations", "capped_registrations", "capped_capacity",
      "unlimited", "active_registrations")::"dispatch_summary_total" FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_total_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_total_add"(ARRAY(
    SELECT ROW("enabled", "dispatches", "registrations", "capped_registrations", "capped_capacity",
      "unlimited", "active_registrations")::"dispatch_summary_total" FROM new_rows
    UNION ALL
    SELECT ROW("enabled", -"dispatches", -"registrations", -"capped_registrations", -"capped_capacity",
      -"unlimited", -"active_registrations")::"dispatch_summary_total" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_total_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "dispatch_summary_total_add"(ARRAY(
    SELECT ROW("enabled", -"dispatches", -"registrations", -"capped_registrations", -"capped_capacity",
      -"unlimited", -"active_registrations")::"dispatch_summary_total" FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_summary_total_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch_summary_total" SET "dispatches" = 0, "registrations" = 0, "capped_registrations" = 0,
    "capped_capacity" = 0, "unlimited" = 0, "active_registrations" = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_total_insert" AFTER INSERT ON "dispatch_summary"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_total_insert"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_total_update" AFTER UPDATE ON "dispatch_summary"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_total_update"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_total_delete" AFTER DELETE ON "dispatch_summary"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_total_delete"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_summary_total_truncate" AFTER TRUNCATE ON "dispatch_summary"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_summary_total_truncate"();
