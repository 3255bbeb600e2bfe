-- Versions that let the server cache aggregates without ever serving a stale one:
-- - dispatch_version (one row, id 1): every statement that writes "dispatch" sets it; the
--   dispatch list computes its summary cards together with this value in one statement and
--   caches them per value, so a list request whose value is unchanged counts nothing again;
-- - dispatch.registration_version: every statement that writes a dispatch's registrations sets
--   it (the counter triggers of 0002, which now also touch dispatches whose count is unchanged);
--   the completion report caches its totals per dispatch and value the same way.
-- A value only grows (greatest(previous + 1, txid_current())): writers of the row queue on its
-- lock, so each committed state has its own value; txid_current() keeps a row that is deleted
-- and made again (or a truncated dispatch_version) from coming back to an older value.
-- TRUNCATE of registration now also resets the counters (it fires no row-set trigger).
INSERT INTO "dispatch_version" ("id", "version") VALUES (1, txid_current());
--> statement-breakpoint
CREATE FUNCTION "dispatch_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dispatch_version" AS v ("id", "version") VALUES (1, txid_current())
  ON CONFLICT ("id") DO UPDATE SET "version" = greatest(v."version" + 1, txid_current());
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "dispatch_version_bump_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A statement that matched no row (the counter triggers' UPDATE often does) changes nothing.
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    INSERT INTO "dispatch_version" AS v ("id", "version") VALUES (1, txid_current())
    ON CONFLICT ("id") DO UPDATE SET "version" = greatest(v."version" + 1, txid_current());
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_version_insert" AFTER INSERT ON "dispatch"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_version_bump_changed"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_version_update" AFTER UPDATE ON "dispatch"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_version_bump_changed"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_version_delete" AFTER DELETE ON "dispatch"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_version_bump_changed"();
--> statement-breakpoint
CREATE TRIGGER "dispatch_version_truncate" AFTER TRUNCATE ON "dispatch"
  FOR EACH STATEMENT EXECUTE FUNCTION "dispatch_version_bump"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_counter_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" + c.delta,
      "registration_version" = greatest(d."registration_version" + 1, txid_current())
  FROM (
    SELECT "dispatch_id", (count(*) FILTER (WHERE "removed_at" IS NULL))::int AS delta
    FROM new_rows GROUP BY "dispatch_id"
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_counter_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" + c.delta,
      "registration_version" = greatest(d."registration_version" + 1, txid_current())
  FROM (
    SELECT "dispatch_id", sum(delta)::int AS delta FROM (
      SELECT "dispatch_id", CASE WHEN "removed_at" IS NULL THEN 1 ELSE 0 END AS delta FROM new_rows
      UNION ALL
      SELECT "dispatch_id", CASE WHEN "removed_at" IS NULL THEN -1 ELSE 0 END AS delta FROM old_rows
    ) AS moves
    GROUP BY "dispatch_id"
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "registration_counter_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = d."active_registration_count" - c.delta,
      "registration_version" = greatest(d."registration_version" + 1, txid_current())
  FROM (
    SELECT "dispatch_id", (count(*) FILTER (WHERE "removed_at" IS NULL))::int AS delta
    FROM old_rows GROUP BY "dispatch_id"
  ) AS c
  WHERE d."id" = c."dispatch_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "registration_counter_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dispatch" AS d
  SET "active_registration_count" = 0,
      "registration_version" = greatest(d."registration_version" + 1, txid_current());
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registration_counter_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "registration_counter_truncate"();
