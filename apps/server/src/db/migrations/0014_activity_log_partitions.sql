-- The activity log partitioned by month of created_at.
--
-- The searched text is stored, lowercased (search_text): a scan of a slice of time compares it
-- with LIKE at a fifth of the CPU of lower-casing each row's details and names again.
--
-- A search of the log reads the trigram index's posting lists of its term. Over two million rows
-- of repetitive text (the same actors, paths and ids again and again), one look-up cost much CPU
-- however few rows matched. Per month the lists are a twelfth as long, and a
-- search looks for its page in the newest slices of time first (logs.service.ts), which now
-- reach only the newest partitions. Old months can also be dropped in one statement later.
--
-- Rows whose month has no partition (tests write 2019 dates; a clock far off) go to the default
-- partition; activity_log_ensure_months() (run by this migration, at start-up and daily by the
-- server, and by the bench before it seeds a year) creates month partitions and moves the
-- month's rows out of the default one. The id is unique by its sequence; the primary key is
-- (id, created_at) since a partitioned table's keys hold its partition key.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE SEQUENCE "activity_log_partitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "activity_log_partitioned" (
  "id" bigint NOT NULL DEFAULT nextval('activity_log_partitioned_id_seq'),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "user_id" uuid,
  "actor_name" text,
  "actor_email" text,
  "action" text NOT NULL,
  "details" jsonb,
  "ip_address" text,
  "search_text" text GENERATED ALWAYS AS (lower(
    coalesce("details"::text, '') || ' ' || coalesce("ip_address", '') || ' ' ||
    coalesce("actor_name", '') || ' ' || coalesce("actor_email", ''))) STORED
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "activity_log_default" PARTITION OF "activity_log_partitioned" DEFAULT;
--> statement-breakpoint
INSERT INTO "activity_log_partitioned" ("id", "created_at", "user_id", "actor_name", "actor_email", "action", "details", "ip_address")
SELECT "id", "created_at", "user_id", "actor_name", "actor_email", "action", "details", "ip_address" FROM "activity_log";
--> statement-breakpoint
SELECT setval('activity_log_partitioned_id_seq', greatest((SELECT max("id") FROM "activity_log"), 1));
--> statement-breakpoint
DROP TABLE "activity_log";
--> statement-breakpoint
ALTER TABLE "activity_log_partitioned" RENAME TO "activity_log";
--> statement-breakpoint
ALTER SEQUENCE "activity_log_partitioned_id_seq" RENAME TO "activity_log_id_seq";
--> statement-breakpoint
ALTER SEQUENCE "activity_log_id_seq" OWNED BY "activity_log"."id";
--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "id" SET DEFAULT nextval('activity_log_id_seq');
--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_pkey" PRIMARY KEY ("id", "created_at");
--> statement-breakpoint
CREATE INDEX "activity_log_created_at_idx" ON "activity_log" ("created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "activity_log_action_created_at_idx" ON "activity_log" ("action", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "activity_log_user_id_created_at_idx" ON "activity_log" ("user_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "activity_log_user_action_idx" ON "activity_log" ("user_id", "action", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX "activity_log_search_trgm_idx" ON "activity_log" USING gin ("search_text" gin_trgm_ops);
  END IF;
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
-- Month partitions (UTC months) from `first` to `last` (both included). A month whose rows sit in the default
-- partition gets them moved into its own (a DELETE and INSERT on the partitions themselves: the
-- parent's triggers do not fire, so the day counts stay as they are, as the rows do).
CREATE FUNCTION "activity_log_ensure_months"("first" date, "last" date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month date;
  part text;
  made integer := 0;
BEGIN
  -- Processes starting together would race to create the same month: one at a time.
  PERFORM pg_advisory_xact_lock(7210014);
  FOR month IN
    SELECT generate_series(date_trunc('month', "first"), date_trunc('month', "last"), interval '1 month')::date
  LOOP
    part := 'activity_log_p' || to_char(month, 'YYYYMM');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE "activity_log" INCLUDING DEFAULTS INCLUDING GENERATED)', part);
    EXECUTE format(
      'WITH moved AS (DELETE FROM "activity_log_default" WHERE "created_at" >= %L AND "created_at" < %L RETURNING *)
       INSERT INTO %I ("id", "created_at", "user_id", "actor_name", "actor_email", "action", "details", "ip_address")
       SELECT "id", "created_at", "user_id", "actor_name", "actor_email", "action", "details", "ip_address" FROM moved',
      month::timestamp AT TIME ZONE 'UTC', (month + interval '1 month')::timestamp AT TIME ZONE 'UTC', part);
    EXECUTE format('ALTER TABLE "activity_log" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      part, month::timestamp AT TIME ZONE 'UTC', (month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
    made := made + 1;
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
-- The months the log already has rows in (the last three years: older rows stay in the default
-- partition), and the current window of every start-up: last month to two months ahead.
SELECT "activity_log_ensure_months"(m, m) FROM (
  SELECT DISTINCT date_trunc('month', "created_at")::date AS m FROM "activity_log_default"
  WHERE "created_at" >= now() - interval '3 years' AND "created_at" < now() + interval '3 months'
) AS months;
--> statement-breakpoint
SELECT "activity_log_ensure_months"((current_date - interval '1 month')::date, (current_date + interval '2 months')::date);
