-- Licence history per dispatch: every change of registration cap, expiry, enabled flag and every
-- registration counter reset, with the counter before and after and who made it. Written by
-- row triggers on `dispatch` in the transaction of the change, so no writer (the portal's edit,
-- counter reset and create paths, the sync's upsert, a scheduled job) can change a licence
-- without a history row. The writer names itself per transaction with
-- set_config('portal.change_actor', '{"kind":..,"id":..,"label":..,"email":..}', true)
-- (db/change-actor.ts); a transaction that names nobody is the sync finding the value upstream.
CREATE TABLE "dispatch_history" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "dispatch_id" text NOT NULL,
  "company_id" text NOT NULL,
  "occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
  -- created | cap | expiry | enabled | count_reset
  "kind" text NOT NULL,
  "old_value" text,
  "new_value" text,
  "count_before" integer,
  "count_after" integer NOT NULL,
  "cap_before" integer,
  "cap_after" integer NOT NULL,
  -- user | apiKey | sync | system (a scheduled renewal, ...): kind + id + label, open to more kinds.
  "actor_kind" text NOT NULL,
  "actor_id" text,
  "actor_label" text NOT NULL,
  "actor_email" text
);
--> statement-breakpoint
-- The timeline (newest first, keyset by id) and the statements' "cap and count as of a time".
CREATE INDEX "dispatch_history_dispatch_idx" ON "dispatch_history" ("dispatch_id", "occurred_at", "id");
--> statement-breakpoint
CREATE FUNCTION "dispatch_history_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who jsonb := nullif(current_setting('portal.change_actor', true), '')::jsonb;
  a_kind text := coalesce(who->>'kind', 'sync');
  a_id text := who->>'id';
  a_label text := coalesce(who->>'label', 'Found upstream by the sync');
  a_email text := who->>'email';
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "dispatch_history" ("dispatch_id", "company_id", "kind", "new_value", "count_after", "cap_after",
      "actor_kind", "actor_id", "actor_label", "actor_email")
    VALUES (NEW."id", NEW."destination_id", 'created', NULL, NEW."registration_count", NEW."registration_cap",
      a_kind, a_id, a_label, a_email);
    RETURN NULL;
  END IF;
  IF NEW."registration_cap" IS DISTINCT FROM OLD."registration_cap" THEN
    INSERT INTO "dispatch_history" ("dispatch_id", "company_id", "kind", "old_value", "new_value", "count_before",
      "count_after", "cap_before", "cap_after", "actor_kind", "actor_id", "actor_label", "actor_email")
    VALUES (NEW."id", NEW."destination_id", 'cap', OLD."registration_cap"::text, NEW."registration_cap"::text,
      OLD."registration_count", NEW."registration_count", OLD."registration_cap", NEW."registration_cap",
      a_kind, a_id, a_label, a_email);
  END IF;
  IF NEW."expiration_date" IS DISTINCT FROM OLD."expiration_date" THEN
    INSERT INTO "dispatch_history" ("dispatch_id", "company_id", "kind", "old_value", "new_value", "count_before",
      "count_after", "cap_before", "cap_after", "actor_kind", "actor_id", "actor_label", "actor_email")
    VALUES (NEW."id", NEW."destination_id", 'expiry',
      to_char(OLD."expiration_date" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      to_char(NEW."expiration_date" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      OLD."registration_count", NEW."registration_count", OLD."registration_cap", NEW."registration_cap",
      a_kind, a_id, a_label, a_email);
  END IF;
  IF NEW."enabled" IS DISTINCT FROM OLD."enabled" THEN
    INSERT INTO "dispatch_history" ("dispatch_id", "company_id", "kind", "old_value", "new_value", "count_before",
      "count_after", "cap_before", "cap_after", "actor_kind", "actor_id", "actor_label", "actor_email")
    VALUES (NEW."id", NEW."destination_id", 'enabled', OLD."enabled"::text, NEW."enabled"::text,
      OLD."registration_count", NEW."registration_count", OLD."registration_cap", NEW."registration_cap",
      a_kind, a_id, a_label, a_email);
  END IF;
  -- A reset: a newer reset date, or (providers that send none) the counter going down.
  IF (NEW."registration_reset_date" IS NOT NULL
      AND NEW."registration_reset_date" IS DISTINCT FROM OLD."registration_reset_date")
     OR NEW."registration_count" < OLD."registration_count" THEN
    INSERT INTO "dispatch_history" ("dispatch_id", "company_id", "kind", "old_value", "new_value", "count_before",
      "count_after", "cap_before", "cap_after", "actor_kind", "actor_id", "actor_label", "actor_email")
    VALUES (NEW."id", NEW."destination_id", 'count_reset', OLD."registration_count"::text,
      NEW."registration_count"::text, OLD."registration_count", NEW."registration_count", OLD."registration_cap",
      NEW."registration_cap", a_kind, a_id, a_label, a_email);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dispatch_history_insert" AFTER INSERT ON "dispatch"
  FOR EACH ROW EXECUTE FUNCTION "dispatch_history_record"();
--> statement-breakpoint
-- Only rows whose licence changed run the function: the sync's upsert rewrites many unchanged rows.
CREATE TRIGGER "dispatch_history_update" AFTER UPDATE ON "dispatch"
  FOR EACH ROW WHEN (
    OLD."registration_cap" IS DISTINCT FROM NEW."registration_cap"
    OR OLD."expiration_date" IS DISTINCT FROM NEW."expiration_date"
    OR OLD."enabled" IS DISTINCT FROM NEW."enabled"
    OR (NEW."registration_reset_date" IS NOT NULL
        AND OLD."registration_reset_date" IS DISTINCT FROM NEW."registration_reset_date")
    OR NEW."registration_count" < OLD."registration_count"
  ) EXECUTE FUNCTION "dispatch_history_record"();
--> statement-breakpoint
-- A client user's opt-in to the monthly usage statement mail (account managers always get theirs).
ALTER TABLE "user_preference" ADD COLUMN "statement_mails" boolean DEFAULT false NOT NULL;
