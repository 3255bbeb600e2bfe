-- The company-wide learner view (/learners), read from a kept aggregate.
--
-- company_learner: one row per company and learner (registration.learner_hash: the e-mail,
-- case-insensitively, else the learner id) over the live registrations of the company's live
-- dispatches: the learner's name and e-mail (from their most recently accessed registration),
-- registrations in all and per completion status, average score, total time, last access, and
-- "facets" (c:<course>, s:<status>, cs:<course>:<status>) for the course and status filters.
-- company_learner_stat: per company, its learners and a version that grows with every change
-- (the list's totals and pages are cached per it, like the completion report's).
--
-- Kept by statement-level triggers like migration 0008's, so every writer keeps it without
-- knowing about it. A touched learner is recounted from their registrations (the index
-- registration_learner_idx below): a maximum (last access) cannot be kept by deltas when a row
-- goes, and a learner has few registrations in a company.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE TABLE "company_learner" (
  "company_id" text NOT NULL,
  "learner_hash" bigint NOT NULL,
  "email" text DEFAULT '' NOT NULL,
  "learner_id" text DEFAULT '' NOT NULL,
  "first_name" text DEFAULT '' NOT NULL,
  "last_name" text DEFAULT '' NOT NULL,
  "registrations" integer DEFAULT 0 NOT NULL,
  "completed" integer DEFAULT 0 NOT NULL,
  "incomplete" integer DEFAULT 0 NOT NULL,
  "not_attempted" integer DEFAULT 0 NOT NULL,
  "average_score" double precision,
  "total_seconds" double precision DEFAULT 0 NOT NULL,
  "last_access" timestamp with time zone,
  "facets" text[] DEFAULT '{}' NOT NULL,
  CONSTRAINT "company_learner_pkey" PRIMARY KEY ("company_id", "learner_hash")
);
--> statement-breakpoint
CREATE TABLE "company_learner_stat" (
  "company_id" text PRIMARY KEY NOT NULL,
  "version" bigint DEFAULT 0 NOT NULL,
  "learners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A learner's registrations, wherever they are (the recount, and the learner's details view).
CREATE INDEX "registration_learner_idx" ON "registration" ("learner_hash") WHERE "removed_at" IS NULL;
--> statement-breakpoint

CREATE FUNCTION "company_learner_refresh"(companies text[], hashes bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(companies, 1), 0) = 0 THEN
    RETURN;
  END IF;
  -- The touched companies' versions first (a fixed order: concurrent writers queue here).
  INSERT INTO "company_learner_stat" AS s ("company_id", "version")
  SELECT DISTINCT c, txid_current() FROM unnest(companies) AS c ORDER BY 1
  ON CONFLICT ("company_id") DO UPDATE SET "version" = greatest(s."version" + 1, txid_current());

  WITH "keys" AS (
    SELECT DISTINCT k.c AS company_id, k.h AS learner_hash FROM unnest(companies, hashes) AS k(c, h)
  ), "fresh" AS (
    SELECT k.company_id, k.learner_hash,
      (array_agg(r."learner_email" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1] AS email,
      (array_agg(r."learner_id" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1] AS learner_id,
      (array_agg(r."learner_first_name" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1] AS first_name,
      (array_agg(r."learner_last_name" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1] AS last_name,
      count(*)::int AS registrations,
      (count(*) FILTER (WHERE r."completion_status" = 'completed'))::int AS completed,
      (count(*) FILTER (WHERE r."completion_status" = 'incomplete'))::int AS incomplete,
      (count(*) FILTER (WHERE r."completion_status" = 'not attempted'))::int AS not_attempted,
      avg(r."score_scaled") AS average_score,
      sum(r."total_seconds_tracked") AS total_seconds,
      max(r."last_access_date") AS last_access,
      array_agg(DISTINCT 'c:' || d."course_id") || array_agg(DISTINCT 's:' || r."completion_status")
        || array_agg(DISTINCT 'cs:' || d."course_id" || ':' || r."completion_status") AS facets
    FROM "keys" AS k
    JOIN "registration" AS r ON r."learner_hash" = k.learner_hash AND r."removed_at" IS NULL
    JOIN "dispatch" AS d ON d."id" = r."dispatch_id" AND d."removed_at" IS NULL AND d."destination_id" = k.company_id
    GROUP BY k.company_id, k.learner_hash
  ), "gone" AS (
    DELETE FROM "company_learner" AS l USING "keys" AS k
    WHERE l."company_id" = k.company_id AND l."learner_hash" = k.learner_hash
      AND NOT EXISTS (SELECT 1 FROM "fresh" AS f WHERE f.company_id = k.company_id AND f.learner_hash = k.learner_hash)
    RETURNING l."company_id"
  ), "written" AS (
    INSERT INTO "company_learner" AS l ("company_id", "learner_hash", "email", "learner_id", "first_name", "last_name",
      "registrations", "completed", "incomplete", "not_attempted", "average_score", "total_seconds", "last_access", "facets")
    SELECT company_id, learner_hash, email, learner_id, first_name, last_name, registrations, completed, incomplete,
      not_attempted, average_score, total_seconds, last_access, facets
    FROM "fresh" ORDER BY company_id, learner_hash
    ON CONFLICT ("company_id", "learner_hash") DO UPDATE SET
      "email" = excluded."email", "learner_id" = excluded."learner_id", "first_name" = excluded."first_name",
      "last_name" = excluded."last_name", "registrations" = excluded."registrations", "completed" = excluded."completed",
      "incomplete" = excluded."incomplete", "not_attempted" = excluded."not_attempted",
      "average_score" = excluded."average_score", "total_seconds" = excluded."total_seconds",
      "last_access" = excluded."last_access", "facets" = excluded."facets"
    RETURNING l."company_id", (xmax = 0) AS inserted
  ), "moves" AS (
    SELECT company_id, count(*) FILTER (WHERE inserted) AS delta FROM "written" GROUP BY company_id
    UNION ALL
    SELECT company_id, -count(*) FROM "gone" GROUP BY company_id
  )
  UPDATE "company_learner_stat" AS s SET "learners" = s."learners" + m.delta
  FROM (SELECT company_id, sum(delta)::int AS delta FROM "moves" GROUP BY company_id) AS m
  WHERE s."company_id" = m.company_id AND m.delta <> 0;
END $$;
--> statement-breakpoint

CREATE FUNCTION "company_learner_registration_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "company_learner_refresh"(array_agg(k.company_id), array_agg(k.learner_hash))
  FROM (
    SELECT DISTINCT d."destination_id" AS company_id, n."learner_hash"
    FROM new_rows AS n JOIN "dispatch" AS d ON d."id" = n."dispatch_id"
    WHERE n."removed_at" IS NULL AND d."removed_at" IS NULL
  ) AS k;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only rows whose learner figures changed (a sync rewrites synced_at on every row it sees).
CREATE FUNCTION "company_learner_registration_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "company_learner_refresh"(array_agg(k.company_id), array_agg(k.learner_hash))
  FROM (
    SELECT DISTINCT d."destination_id" AS company_id, x.learner_hash
    FROM (
      SELECT n."dispatch_id", n."learner_hash" FROM new_rows AS n JOIN old_rows AS o ON o."id" = n."id"
      WHERE (n."dispatch_id", n."learner_hash", n."learner_email", n."learner_id", n."learner_first_name",
          n."learner_last_name", n."completion_status", n."score_scaled", n."total_seconds_tracked",
          n."last_access_date", n."removed_at")
        IS DISTINCT FROM (o."dispatch_id", o."learner_hash", o."learner_email", o."learner_id", o."learner_first_name",
          o."learner_last_name", o."completion_status", o."score_scaled", o."total_seconds_tracked",
          o."last_access_date", o."removed_at")
      UNION ALL
      SELECT o."dispatch_id", o."learner_hash" FROM new_rows AS n JOIN old_rows AS o ON o."id" = n."id"
      WHERE (n."dispatch_id", n."learner_hash", n."removed_at") IS DISTINCT FROM (o."dispatch_id", o."learner_hash", o."removed_at")
    ) AS x JOIN "dispatch" AS d ON d."id" = x."dispatch_id"
    WHERE d."removed_at" IS NULL
  ) AS k;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "company_learner_registration_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "company_learner_refresh"(array_agg(k.company_id), array_agg(k.learner_hash))
  FROM (
    SELECT DISTINCT d."destination_id" AS company_id, o."learner_hash"
    FROM old_rows AS o JOIN "dispatch" AS d ON d."id" = o."dispatch_id"
    WHERE o."removed_at" IS NULL
  ) AS k;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "company_learner_registration_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "company_learner";
  UPDATE "company_learner_stat" SET "version" = greatest("version" + 1, txid_current()), "learners" = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A dispatch that moves to another company, or is removed or restored: its learners, in both companies.
CREATE FUNCTION "company_learner_dispatch_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "company_learner_refresh"(array_agg(k.company_id), array_agg(k.learner_hash))
  FROM (
    SELECT DISTINCT c.company_id, r."learner_hash"
    FROM (
      SELECT n."id", unnest(ARRAY[n."destination_id", o."destination_id"]) AS company_id
      FROM new_rows AS n JOIN old_rows AS o ON o."id" = n."id"
      WHERE (n."destination_id", n."course_id", n."removed_at") IS DISTINCT FROM (o."destination_id", o."course_id", o."removed_at")
    ) AS c JOIN "registration" AS r ON r."dispatch_id" = c."id" AND r."removed_at" IS NULL
  ) AS k;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_learner_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_learner_registration_insert"();
--> statement-breakpoint
CREATE TRIGGER "company_learner_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_learner_registration_update"();
--> statement-breakpoint
CREATE TRIGGER "company_learner_delete" AFTER DELETE ON "registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_learner_registration_delete"();
--> statement-breakpoint
CREATE TRIGGER "company_learner_truncate" AFTER TRUNCATE ON "registration"
  FOR EACH STATEMENT EXECUTE FUNCTION "company_learner_registration_truncate"();
--> statement-breakpoint
CREATE TRIGGER "company_learner_dispatch_update" AFTER UPDATE ON "dispatch"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_learner_dispatch_update"();
--> statement-breakpoint

-- Existing data (an upgraded database).
INSERT INTO "company_learner" ("company_id", "learner_hash", "email", "learner_id", "first_name", "last_name",
  "registrations", "completed", "incomplete", "not_attempted", "average_score", "total_seconds", "last_access", "facets")
SELECT d."destination_id", r."learner_hash",
  (array_agg(r."learner_email" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1],
  (array_agg(r."learner_id" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1],
  (array_agg(r."learner_first_name" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1],
  (array_agg(r."learner_last_name" ORDER BY r."last_access_date" DESC NULLS LAST, r."id"))[1],
  count(*), count(*) FILTER (WHERE r."completion_status" = 'completed'),
  count(*) FILTER (WHERE r."completion_status" = 'incomplete'),
  count(*) FILTER (WHERE r."completion_status" = 'not attempted'),
  avg(r."score_scaled"), sum(r."total_seconds_tracked"), max(r."last_access_date"),
  array_agg(DISTINCT 'c:' || d."course_id") || array_agg(DISTINCT 's:' || r."completion_status")
    || array_agg(DISTINCT 'cs:' || d."course_id" || ':' || r."completion_status")
FROM "registration" AS r JOIN "dispatch" AS d ON d."id" = r."dispatch_id"
WHERE r."removed_at" IS NULL AND d."removed_at" IS NULL
GROUP BY d."destination_id", r."learner_hash";
--> statement-breakpoint
INSERT INTO "company_learner_stat" ("company_id", "version", "learners")
SELECT "company_id", txid_current(), count(*) FROM "company_learner" GROUP BY "company_id";
--> statement-breakpoint

-- One index per sort key (either direction: read backwards), the company first, the learner last
-- (the tie-break and the page's join key): a page is an index-only walk of its offset.
CREATE INDEX "company_learner_name_idx" ON "company_learner" ("company_id", lower("first_name" || ' ' || "last_name"), "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_email_idx" ON "company_learner" ("company_id", lower("email"), "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_courses_idx" ON "company_learner" ("company_id", "registrations", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_completed_idx" ON "company_learner" ("company_id", "completed", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_incomplete_idx" ON "company_learner" ("company_id", "incomplete", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_not_attempted_idx" ON "company_learner" ("company_id", "not_attempted", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_score_idx" ON "company_learner" ("company_id", coalesce("average_score", -1), "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_time_idx" ON "company_learner" ("company_id", "total_seconds", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_last_access_idx" ON "company_learner" ("company_id", coalesce("last_access", '-infinity'::timestamptz), "learner_hash");
--> statement-breakpoint
-- The search (name and e-mail, the completion report's text) and the course/status facets.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    CREATE INDEX IF NOT EXISTS "company_learner_facets_idx" ON "company_learner" USING gin ("company_id", "facets");
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
      CREATE INDEX IF NOT EXISTS "company_learner_search_idx" ON "company_learner" USING gin (
        "company_id",
        (lower("first_name" || ' ' || "last_name" || ' ' || "email")) gin_trgm_ops
      );
    END IF;
  END IF;
END $$;
--> statement-breakpoint
-- Statistics now: until autovacuum reads the new table, the planner would guess its size and
-- sort a company's learners instead of walking the sort index.
ANALYZE "company_learner";
