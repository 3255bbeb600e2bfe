-- The full sync at the bench's size, and the company-wide learner view (company_learner, migrations 0015 and 0017).
--
-- A first full sync wrote every registration page through the learner refresh (the upsert into
-- company_learner's eleven indexes and the facet counts for every learner), which made most of
-- the full sync's time at the bench's size. Built in one pass per company
-- instead (one INSERT ... SELECT ... GROUP BY over its registrations), the same aggregate costs a
-- few seconds for the largest company.
--
-- company_learner_refresh now looks at the setting `portal.learners_deferred`: when a
-- transaction sets it to 'on' (the sync's full registration listing does), the keys of a company
-- that has no learner yet, or is already waiting for its build, are not refreshed: the company is
-- marked `building` and company_learner_build rebuilds it whole later (the sync, at the end of
-- its registration listing, whatever the listing's outcome was before). A company that has
-- learners is refreshed as before: a later full sync changes few rows, and a rebuild would read
-- every registration of the company. Without the setting (postbacks, incremental syncs, edits)
-- nothing changes, also for a company being built: its build later reads those rows too.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
ALTER TABLE "company_learner_stat" ADD COLUMN "building" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "company_learner_stat_building_idx" ON "company_learner_stat" ("company_id") WHERE "building";
--> statement-breakpoint
-- 0017's function keeps its body under a new name; the triggers call company_learner_refresh by name.
ALTER FUNCTION "company_learner_refresh"(text[], bigint[]) RENAME TO "company_learner_refresh_keys";
--> statement-breakpoint
CREATE FUNCTION "company_learner_refresh"(companies text[], hashes bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  deferred text[];
BEGIN
  IF coalesce(array_length(companies, 1), 0) = 0 THEN
    RETURN;
  END IF;
  IF coalesce(current_setting('portal.learners_deferred', true), '') = 'on' THEN
    SELECT array_agg(u.c ORDER BY u.c) INTO deferred
    FROM (SELECT DISTINCT c FROM unnest(companies) AS c) AS u
    LEFT JOIN "company_learner_stat" AS s ON s."company_id" = u.c
    WHERE s."company_id" IS NULL OR s."building" OR s."learners" = 0;
    IF deferred IS NOT NULL THEN
      -- The version moves once, when the build is asked for (the lists' caches), and again when it lands.
      INSERT INTO "company_learner_stat" AS s ("company_id", "version", "building")
      SELECT c, txid_current(), true FROM unnest(deferred) AS c ORDER BY 1
      ON CONFLICT ("company_id") DO UPDATE SET "building" = true, "version" = greatest(s."version" + 1, txid_current())
      WHERE NOT s."building";
      SELECT coalesce(array_agg(k.c), '{}'), coalesce(array_agg(k.h), '{}') INTO companies, hashes
      FROM unnest(companies, hashes) AS k(c, h)
      WHERE k.c <> ALL (deferred);
    END IF;
  END IF;
  PERFORM "company_learner_refresh_keys"(companies, hashes);
END $$;
--> statement-breakpoint
-- One company's learners and facet counts, from its registrations, in one pass; returns its
-- learners. The stat row is locked first, as the refresh does: writers of the company queue.
CREATE FUNCTION "company_learner_build"(company text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  INSERT INTO "company_learner_stat" AS s ("company_id", "version") VALUES (company, txid_current())
  ON CONFLICT ("company_id") DO UPDATE SET "version" = greatest(s."version" + 1, txid_current());
  DELETE FROM "company_learner" WHERE "company_id" = company;
  DELETE FROM "company_learner_facet" WHERE "company_id" = company;
  INSERT INTO "company_learner" ("company_id", "learner_hash", "email", "learner_id", "first_name", "last_name",
    "registrations", "completed", "incomplete", "not_attempted", "average_score", "total_seconds", "last_access", "facets")
  SELECT company, r."learner_hash",
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
  FROM "dispatch" AS d
  JOIN "registration" AS r ON r."dispatch_id" = d."id" AND r."removed_at" IS NULL
  WHERE d."destination_id" = company AND d."removed_at" IS NULL
  GROUP BY r."learner_hash";
  GET DIAGNOSTICS n = ROW_COUNT;
  -- A learner's facets are distinct (company_learner_refresh_keys builds them so).
  INSERT INTO "company_learner_facet" ("company_id", "facet", "learners")
  SELECT company, f.facet, count(*)
  FROM "company_learner" AS l, unnest(l."facets") AS f(facet)
  WHERE l."company_id" = company AND f.facet IS NOT NULL
  GROUP BY f.facet;
  UPDATE "company_learner_stat" SET "learners" = n, "building" = false WHERE "company_id" = company;
  RETURN n;
END $$;
