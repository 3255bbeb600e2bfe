-- Outgoing webhooks (Standard Webhooks). A subscription is a company's (its client users') or,
-- without a company, the vendor's (an admin's, every company's events). Its signing secret is
-- kept sealed with the deployment key (lib/secret-box.ts), never in clear.
CREATE TABLE "webhook_subscription" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "company_id" text REFERENCES "company"("id") ON DELETE CASCADE,
  "created_by" uuid REFERENCES "app_user"("id") ON DELETE SET NULL,
  "url" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "events" jsonb NOT NULL,
  "secret_sealed" text NOT NULL,
  "status" text DEFAULT 'active' NOT NULL CHECK ("status" IN ('active', 'paused')),
  "paused_reason" text,
  "failing_since" timestamp with time zone,
  "final_failures" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_subscription_company_id_idx" ON "webhook_subscription" ("company_id");
--> statement-breakpoint
-- The transactional outbox: an event is written by the statement that made the change (the
-- triggers below), in its transaction, and only when some active subscription wants it.
CREATE TABLE "webhook_event" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "type" text NOT NULL,
  "company_id" text,
  "order_key" text NOT NULL,
  "data" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
-- One row per event and subscription: its state, its attempts and the last answer (the log).
-- order_key (the dispatch, or the course request) keeps a subscription's events of one
-- dispatch in order: a later one waits while an earlier one is pending or being sent.
CREATE TABLE "webhook_delivery" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "subscription_id" uuid NOT NULL REFERENCES "webhook_subscription"("id") ON DELETE CASCADE,
  "event_id" uuid NOT NULL REFERENCES "webhook_event"("id") ON DELETE CASCADE,
  "order_key" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'sending', 'succeeded', 'failed')),
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "claim_token" uuid,
  "locked_until" timestamp with time zone,
  "last_attempt_at" timestamp with time zone,
  "status_code" integer,
  "duration_ms" integer,
  "response_excerpt" text,
  "error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "webhook_delivery_log_idx" ON "webhook_delivery" ("subscription_id", "id" DESC);
--> statement-breakpoint
CREATE INDEX "webhook_delivery_open_idx" ON "webhook_delivery" ("subscription_id", "order_key", "id")
  WHERE "status" IN ('pending', 'sending');
--> statement-breakpoint
CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery" ("next_attempt_at")
  WHERE "status" IN ('pending', 'sending');
--> statement-breakpoint
CREATE INDEX "webhook_delivery_event_idx" ON "webhook_delivery" ("event_id");
--> statement-breakpoint
-- Writes one event and its deliveries to every active subscription that wants it: the
-- vendor's, and the company's own (a client subscription never sees another company's data)
-- while an admin allows the company integrations (the setting of its API keys).
CREATE FUNCTION "webhook_emit"(p_type text, p_company_id text, p_order_key text, p_data jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "webhook_subscription" s
    WHERE s."status" = 'active' AND s."events" ? p_type
      AND (s."company_id" IS NULL OR (s."company_id" = p_company_id
      AND EXISTS (SELECT 1 FROM "company" c WHERE c."id" = p_company_id AND c."api_keys_allowed")))
  ) THEN
    RETURN;
  END IF;
  INSERT INTO "webhook_event" ("type", "company_id", "order_key", "data")
  VALUES (p_type, p_company_id, p_order_key, p_data) RETURNING "id" INTO event_id;
  INSERT INTO "webhook_delivery" ("subscription_id", "event_id", "order_key")
  SELECT s."id", event_id, p_order_key FROM "webhook_subscription" s
  WHERE s."status" = 'active' AND s."events" ? p_type
    AND (s."company_id" IS NULL OR (s."company_id" = p_company_id
      AND EXISTS (SELECT 1 FROM "company" c WHERE c."id" = p_company_id AND c."api_keys_allowed")))
  ORDER BY s."id";
END $$;
--> statement-breakpoint
CREATE FUNCTION "webhook_dispatch_data"(d "dispatch") RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'dispatchId', d."id", 'companyId', d."destination_id", 'companyName', d."destination_name",
    'courseId', d."course_id", 'courseTitle', d."course_title", 'enabled', d."enabled",
    'allowNewRegistrations', d."allow_new_registrations", 'registrationCap', d."registration_cap",
    'registrationCount', d."registration_count", 'expirationDate', d."expiration_date",
    'tags', to_jsonb(d."tags"), 'removedAt', d."removed_at")
$$;
--> statement-breakpoint
-- Dispatches: created (a new live row), removed (removed_at set), disabled (enabled turned
-- off), changed (any other field a subscriber acts on; the registration count alone is not a
-- change: it moves with every launch, and the completions have their own event).
CREATE FUNCTION "webhook_dispatch_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "webhook_subscription" WHERE "status" = 'active') THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW."removed_at" IS NULL THEN
      PERFORM "webhook_emit"('dispatch.created', NEW."destination_id", NEW."id", "webhook_dispatch_data"(NEW));
    END IF;
  ELSIF NEW."removed_at" IS NOT NULL AND OLD."removed_at" IS NULL THEN
    PERFORM "webhook_emit"('dispatch.removed', NEW."destination_id", NEW."id", "webhook_dispatch_data"(NEW));
  ELSIF NEW."removed_at" IS NULL AND OLD."enabled" AND NOT NEW."enabled" THEN
    PERFORM "webhook_emit"('dispatch.disabled', NEW."destination_id", NEW."id", "webhook_dispatch_data"(NEW));
  ELSIF NEW."removed_at" IS NULL AND (
    OLD."removed_at" IS NOT NULL
    OR (OLD."enabled", OLD."allow_new_registrations", OLD."instanced", OLD."registration_cap",
        OLD."expiration_date", OLD."course_title", OLD."tags", OLD."notes", OLD."css_url")
       IS DISTINCT FROM
       (NEW."enabled", NEW."allow_new_registrations", NEW."instanced", NEW."registration_cap",
        NEW."expiration_date", NEW."course_title", NEW."tags", NEW."notes", NEW."css_url")
  ) THEN
    PERFORM "webhook_emit"('dispatch.changed', NEW."destination_id", NEW."id", "webhook_dispatch_data"(NEW));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "webhook_dispatch_insert" AFTER INSERT ON "dispatch"
  FOR EACH ROW EXECUTE FUNCTION "webhook_dispatch_row"();
--> statement-breakpoint
CREATE TRIGGER "webhook_dispatch_update" AFTER UPDATE ON "dispatch"
  FOR EACH ROW EXECUTE FUNCTION "webhook_dispatch_row"();
--> statement-breakpoint
-- Registrations: a completion, new or by an update (a postback or a sync run). Statement
-- triggers with transition tables, and nothing at all unless a subscription wants completions,
-- so bulk sync writes pay one cheap check per statement.
CREATE FUNCTION "webhook_registration_completed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "webhook_subscription" WHERE "status" = 'active' AND "events" ? 'registration.completed'
  ) THEN
    RETURN NULL;
  END IF;
  FOR r IN
    SELECT n.*, d."destination_id" AS company_id, d."course_title" AS course_title
    FROM new_rows n JOIN "dispatch" d ON d."id" = n."dispatch_id"
    WHERE n."completion_status" = 'completed' AND n."removed_at" IS NULL
      AND (TG_OP = 'INSERT' OR NOT EXISTS (
        SELECT 1 FROM old_rows o WHERE o."id" = n."id" AND o."completion_status" = 'completed'))
    ORDER BY n."dispatch_id", n."completed_date" NULLS LAST, n."id"
  LOOP
    PERFORM "webhook_emit"('registration.completed', r.company_id, r."dispatch_id", jsonb_build_object(
      'registrationId', r."id", 'dispatchId', r."dispatch_id", 'companyId', r.company_id,
      'courseId', r."course_id", 'courseTitle', r.course_title,
      'learner', jsonb_build_object('id', r."learner_id", 'firstName', r."learner_first_name",
        'lastName', r."learner_last_name", 'email', r."learner_email"),
      'completionStatus', r."completion_status", 'successStatus', r."success_status",
      'score', r."score_scaled", 'totalSecondsTracked', r."total_seconds_tracked",
      'completedAt', r."completed_date"));
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "webhook_registration_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "webhook_subscription" WHERE "status" = 'active' AND "events" ? 'registration.completed'
  ) THEN
    RETURN NULL;
  END IF;
  FOR r IN
    SELECT n.*, d."destination_id" AS company_id, d."course_title" AS course_title
    FROM new_rows n JOIN "dispatch" d ON d."id" = n."dispatch_id"
    WHERE n."completion_status" = 'completed' AND n."removed_at" IS NULL
    ORDER BY n."dispatch_id", n."completed_date" NULLS LAST, n."id"
  LOOP
    PERFORM "webhook_emit"('registration.completed', r.company_id, r."dispatch_id", jsonb_build_object(
      'registrationId', r."id", 'dispatchId', r."dispatch_id", 'companyId', r.company_id,
      'courseId', r."course_id", 'courseTitle', r.course_title,
      'learner', jsonb_build_object('id', r."learner_id", 'firstName', r."learner_first_name",
        'lastName', r."learner_last_name", 'email', r."learner_email"),
      'completionStatus', r."completion_status", 'successStatus', r."success_status",
      'score', r."score_scaled", 'totalSecondsTracked', r."total_seconds_tracked",
      'completedAt', r."completed_date"));
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "webhook_registration_insert" AFTER INSERT ON "registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "webhook_registration_inserted"();
--> statement-breakpoint
CREATE TRIGGER "webhook_registration_update" AFTER UPDATE ON "registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "webhook_registration_completed"();
--> statement-breakpoint
-- Licence alerts as the alert evaluation raises them (one row per level crossed).
CREATE FUNCTION "webhook_alert_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."kind" = 'usage' THEN
    PERFORM "webhook_emit"('licence.threshold_crossed', NEW."company_id", NEW."dispatch_id", jsonb_build_object(
      'dispatchId', NEW."dispatch_id", 'companyId', NEW."company_id", 'companyName', NEW."company_name",
      'courseTitle', NEW."course_title", 'thresholdPercent', NEW."level",
      'registrationCount', NEW."registration_count", 'registrationCap', NEW."registration_cap"));
  ELSIF NEW."kind" = 'expiry' THEN
    PERFORM "webhook_emit"('licence.expiry_approaching', NEW."company_id", NEW."dispatch_id", jsonb_build_object(
      'dispatchId', NEW."dispatch_id", 'companyId', NEW."company_id", 'companyName', NEW."company_name",
      'courseTitle', NEW."course_title", 'daysLeft', NEW."level", 'expirationDate', NEW."expiration_date"));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "webhook_alert_insert" AFTER INSERT ON "alert"
  FOR EACH ROW EXECUTE FUNCTION "webhook_alert_row"();
--> statement-breakpoint
CREATE FUNCTION "webhook_course_request_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  body jsonb := jsonb_build_object(
    'requestId', NEW."id", 'companyId', NEW."company_id", 'courseId', NEW."course_id",
    'courseTitle', NEW."course_title", 'licenses', NEW."licenses", 'status', NEW."status",
    'requestorName', NEW."requestor_name", 'requestorEmail', NEW."requestor_email");
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "webhook_emit"('course_request.created', NEW."company_id", 'course_request:' || NEW."id", body);
  ELSIF NEW."status" IS DISTINCT FROM OLD."status" THEN
    PERFORM "webhook_emit"('course_request.status_changed', NEW."company_id", 'course_request:' || NEW."id",
      body || jsonb_build_object('previousStatus', OLD."status"));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "webhook_course_request_insert" AFTER INSERT ON "course_request"
  FOR EACH ROW EXECUTE FUNCTION "webhook_course_request_row"();
--> statement-breakpoint
CREATE TRIGGER "webhook_course_request_update" AFTER UPDATE ON "course_request"
  FOR EACH ROW EXECUTE FUNCTION "webhook_course_request_row"();
