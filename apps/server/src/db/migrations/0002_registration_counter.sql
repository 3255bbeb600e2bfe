-- dispatch.active_registration_count = the dispatch's registration rows with removed_at null.
-- The dispatch list summary ("active registrations", staff only) sums it over up to 50,000
-- dispatches; counting a million registration rows on every request instead would make the
-- summary the dearest part of the list. Statement-level triggers with transition tables keep it: one grouped UPDATE per
-- statement (a sync chunk of 1,000 rows costs one small aggregate), and only dispatches whose
-- count changes are written, so progress updates of existing registrations touch no dispatch.
-- Every writer (sync, postback webhook, tests) is covered without knowing about the column.
-- TRUNCATE does not fire these triggers: after a TRUNCATE of registration, reset the column.
CREATE FUNCTION "registration_counter_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" + c.delta
  FROM (
    SELECT "dispatch_id", count(*)::int AS delta FROM new_rows
    WHERE "removed_at" IS NULL GROUP BY "dispatch_id"
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_counter_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" + c.delta
  FROM (
    SELECT "dispatch_id", sum(delta)::int AS delta FROM (
      SELECT "dispatch_id", 1 AS delta FROM new_rows WHERE "removed_at" IS NULL
      UNION ALL
      SELECT "dispatch_id", -1 AS delta FROM old_rows WHERE "removed_at" IS NULL
    ) AS moves
    GROUP BY "dispatch_id" HAVING sum(delta) <> 0
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_counter_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" - c.delta
  FROM (
    SELECT "dispatch_id", count(*)::int AS delta FROM old_rows
    WHERE "removed_at" IS NULL GROUP BY "dispatch_id"
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registration_counter_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_counter_insert"();
--> statement-breakpoint
CREATE TRIGGER "registration_counter_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_counter_update"();
--> statement-breakpoint
CREATE TRIGGER "registration_counter_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "registration_counter_delete"();
--> statement-breakpoint
UPDATE "dispatch" AS d SET "active_registration_count" = c.n
FROM (SELECT "dispatch_id", count(*)::int AS n FROM "registration" WHERE "removed_at" IS NULL GROUP BY "dispatch_id") AS c
WHERE d."id" = c."dispatch_id";
