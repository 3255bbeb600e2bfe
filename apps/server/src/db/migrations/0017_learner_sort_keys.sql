-- the learner list's deep pages and filtered totals (migration 0015's company_learner).
--
-- Sort keys as stored generated columns: 0015's sort indexes were on expressions
-- (lower(first_name || ' ' || last_name), lower(email), coalesce(average_score, -1),
-- coalesce(last_access, '-infinity')), and PostgreSQL cannot answer from an index alone an
-- expression whose inputs are not in it: a deep page's offset was a heap fetch per skipped
-- learner (or, as the planner priced that, a sort of the whole company). On the columns, the
-- offset is an index-only walk of (company_id, key, learner_hash).
--
-- company_learner_facet: per company and facet (c:<course>, s:<status>, cs:<course>:<status>),
-- the learners that have it, kept by company_learner_refresh from each touched learner's facets
-- before and after, so a course or status filter's total is read, not counted.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_name_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_email_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_score_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "company_learner_last_access_idx";
--> statement-breakpoint
ALTER TABLE "company_learner"
  ADD COLUMN "name_key" text GENERATED ALWAYS AS (lower("first_name" || ' ' || "last_name")) STORED NOT NULL,
  ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower("email")) STORED NOT NULL,
  ADD COLUMN "score_key" double precision GENERATED ALWAYS AS (coalesce("average_score", -1)) STORED NOT NULL,
  ADD COLUMN "access_key" timestamp with time zone GENERATED ALWAYS AS (coalesce("last_access", '-infinity'::timestamptz)) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "company_learner_name_idx" ON "company_learner" ("company_id", "name_key", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_email_idx" ON "company_learner" ("company_id", "email_key", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_score_idx" ON "company_learner" ("company_id", "score_key", "learner_hash");
--> statement-breakpoint
CREATE INDEX "company_learner_last_access_idx" ON "company_learner" ("company_id", "access_key", "learner_hash");
--> statement-breakpoint

CREATE TABLE "company_learner_facet" (
  "company_id" text NOT NULL,
  "facet" text NOT NULL,
  "learners" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "company_learner_facet_pkey" PRIMARY KEY ("company_id", "facet")
);
--> statement-breakpoint
INSERT INTO "company_learner_facet" ("company_id", "facet", "learners")
SELECT l."company_id", f.facet, count(DISTINCT l."learner_hash")
FROM "company_learner" AS l, unnest(l."facets") AS f(facet)
WHERE f.facet IS NOT NULL
GROUP BY l."company_id", f.facet;
--> statement-breakpoint

-- 0015's function, and the facet counts: "before" reads the touched learners' rows as they were
-- when the statement began (every part of one statement sees the same snapshot; the lock on the
-- company's stat row taken first queues concurrent writers of a company, so that snapshot is
-- taken after the previous writer committed).
CREATE OR REPLACE FUNCTION "company_learner_refresh"(companies text[], hashes bigint[]) RETURNS void
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
  ), "before" AS (
    SELECT l."company_id", l."learner_hash", l."facets"
    FROM "keys" AS k JOIN "company_learner" AS l ON l."company_id" = k.company_id AND l."learner_hash" = k.learner_hash
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
  ), "facet_moves" AS (
    -- Each learner's facets after (+1) and before (-1), each facet once per learner.
    INSERT INTO "company_learner_facet" AS cf ("company_id", "facet", "learners")
    SELECT m.company_id, m.facet, sum(m.delta)::int
    FROM (
      SELECT DISTINCT f.company_id, f.learner_hash, x.facet, 1 AS delta
      FROM "fresh" AS f, unnest(f.facets) AS x(facet) WHERE x.facet IS NOT NULL
      UNION ALL
      SELECT DISTINCT b.company_id, b.learner_hash, x.facet, -1 AS delta
      FROM "before" AS b, unnest(b.facets) AS x(facet) WHERE x.facet IS NOT NULL
    ) AS m
    GROUP BY m.company_id, m.facet
    HAVING sum(m.delta) <> 0
    ORDER BY m.company_id, m.facet
    ON CONFLICT ("company_id", "facet") DO UPDATE SET "learners" = cf."learners" + excluded."learners"
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
CREATE OR REPLACE FUNCTION "company_learner_registration_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "company_learner";
  DELETE FROM "company_learner_facet";
  UPDATE "company_learner_stat" SET "version" = greatest("version" + 1, txid_current()), "learners" = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Statistics for the new columns and table (autovacuum may be off; the planner would guess).
ANALYZE "company_learner";
--> statement-breakpoint
ANALYZE "company_learner_facet";
