-- A first sync defers every company's learners to one build per company (migration 0021): the
-- insert trigger of `registration` paired each new row's company with its learner, sorted the
-- pairs, and handed them to company_learner_refresh, which then dropped every pair of a
-- deferred company. For a million registrations that was a sort of a million pairs thrown away.
-- The trigger now asks first which of the rows' companies are deferred (from their dispatches,
-- a few hundred rows), and pairs only the rows of the others; when every company is deferred
-- it pairs nothing. company_learner_defer is the deferral company_learner_refresh did inline,
-- and the refresh now calls it, so the rule is written once.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE FUNCTION "company_learner_defer"(companies text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  deferred text[];
BEGIN
  IF coalesce(current_setting('portal.learners_deferred', true), '') <> 'on'
     OR coalesce(array_length(companies, 1), 0) = 0 THEN
    RETURN '{}';
  END IF;
  SELECT coalesce(array_agg(u.c ORDER BY u.c), '{}') INTO deferred
  FROM (SELECT DISTINCT c FROM unnest(companies) AS c) AS u
  LEFT JOIN "company_learner_stat" AS s ON s."company_id" = u.c
  WHERE s."company_id" IS NULL OR s."building" OR s."learners" = 0;
  IF deferred <> '{}' THEN
    -- The version moves once, when the build is asked for (the lists' caches), and again when it lands.
    INSERT INTO "company_learner_stat" AS s ("company_id", "version", "building")
    SELECT c, txid_current(), true FROM unnest(deferred) AS c ORDER BY 1
    ON CONFLICT ("company_id") DO UPDATE SET "building" = true, "version" = greatest(s."version" + 1, txid_current())
    WHERE NOT s."building";
  END IF;
  RETURN deferred;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "company_learner_refresh"(companies text[], hashes bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  deferred text[];
BEGIN
  IF coalesce(array_length(companies, 1), 0) = 0 THEN
    RETURN;
  END IF;
  deferred := "company_learner_defer"(companies);
  IF deferred <> '{}' THEN
    SELECT coalesce(array_agg(k.c), '{}'), coalesce(array_agg(k.h), '{}') INTO companies, hashes
    FROM unnest(companies, hashes) AS k(c, h)
    WHERE k.c <> ALL (deferred);
  END IF;
  PERFORM "company_learner_refresh_keys"(companies, hashes);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "company_learner_registration_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  companies text[];
  deferred text[] := '{}';
BEGIN
  IF coalesce(current_setting('portal.learners_deferred', true), '') = 'on' THEN
    companies := ARRAY(
      SELECT DISTINCT d."destination_id"
      FROM (SELECT DISTINCT "dispatch_id" FROM new_rows WHERE "removed_at" IS NULL) AS n
      JOIN "dispatch" AS d ON d."id" = n."dispatch_id"
      WHERE d."removed_at" IS NULL);
    deferred := "company_learner_defer"(companies);
    IF coalesce(array_length(deferred, 1), 0) = coalesce(array_length(companies, 1), 0) THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM "company_learner_refresh"(array_agg(k.company_id), array_agg(k.learner_hash))
  FROM (
    SELECT DISTINCT d."destination_id" AS company_id, n."learner_hash"
    FROM new_rows AS n JOIN "dispatch" AS d ON d."id" = n."dispatch_id"
    WHERE n."removed_at" IS NULL AND d."removed_at" IS NULL AND d."destination_id" <> ALL (deferred)
  ) AS k;
  RETURN NULL;
END $$;
