-- Alerts before a cap or an expiry bites, the mail outbox, preferences and scheduled reports.
--
-- alert_settings (one row) holds the global thresholds; company_alert_settings a company's override.
-- alert_state: the crossings that have raised their alert (dispatch, kind, level). A crossing raises
-- an alert when its row is inserted (ON CONFLICT DO NOTHING: once, whoever evaluates), and the row is
-- deleted when the crossing no longer holds (usage fell below, a reset, the expiry moved out), which
-- re-arms it. alert_watch: the enabled/removed flags the last evaluation saw per dispatch, so a change
-- to disabled or removed raises one alert (a dispatch first seen disabled raises none).
CREATE TABLE "alert_settings" (
  "id" integer PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
  "usage_thresholds" integer[] DEFAULT '{80,90,100}' NOT NULL,
  "expiry_days" integer[] DEFAULT '{30,7,0}' NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "alert_settings" ("id") VALUES (1);
--> statement-breakpoint
CREATE TABLE "company_alert_settings" (
  "company_id" text PRIMARY KEY NOT NULL REFERENCES "company"("id") ON DELETE CASCADE,
  "usage_thresholds" integer[] NOT NULL,
  "expiry_days" integer[] NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_state" (
  "dispatch_id" text NOT NULL,
  "kind" text NOT NULL,
  "level" integer NOT NULL,
  "raised_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "alert_state_pkey" PRIMARY KEY ("dispatch_id", "kind", "level")
);
--> statement-breakpoint
CREATE TABLE "alert_watch" (
  "dispatch_id" text PRIMARY KEY NOT NULL,
  "enabled" boolean NOT NULL,
  "removed" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "kind" text NOT NULL CHECK ("kind" IN ('usage', 'expiry', 'disabled', 'removed')),
  "level" integer NOT NULL,
  "dispatch_id" text NOT NULL,
  "company_id" text NOT NULL,
  "company_name" text NOT NULL,
  "course_title" text NOT NULL,
  "registration_count" integer NOT NULL,
  "registration_cap" integer NOT NULL,
  "expiration_date" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alert_company_idx" ON "alert" ("company_id", "id" DESC);
--> statement-breakpoint
CREATE TABLE "alert_read" (
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "alert_id" bigint NOT NULL REFERENCES "alert"("id") ON DELETE CASCADE,
  CONSTRAINT "alert_read_pkey" PRIMARY KEY ("user_id", "alert_id")
);
--> statement-breakpoint
CREATE TABLE "notification_cursor" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "read_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_preference" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "alert_mails" boolean,
  "weekly_digest" boolean DEFAULT false NOT NULL,
  "time_zone" text DEFAULT 'UTC' NOT NULL,
  "report_frequency" text DEFAULT 'off' NOT NULL CHECK ("report_frequency" IN ('off', 'weekly', 'monthly')),
  "report_hour" integer DEFAULT 8 NOT NULL CHECK ("report_hour" BETWEEN 0 AND 23),
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "user_preference_scheduled_idx" ON "user_preference" ("user_id")
  WHERE "weekly_digest" OR "report_frequency" <> 'off';
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "idempotency_key" text NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('alert', 'digest', 'report')),
  "user_id" uuid REFERENCES "app_user"("id") ON DELETE SET NULL,
  "to_address" text NOT NULL,
  "subject" text NOT NULL,
  "text_body" text NOT NULL,
  "html_body" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'sending', 'sent', 'failed', 'uncertain')),
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "locked_until" timestamp with time zone,
  "claim_token" uuid,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_idempotency_key" ON "mail_outbox" ("idempotency_key");
--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" ("next_attempt_at", "id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "mail_outbox_sending_idx" ON "mail_outbox" ("locked_until") WHERE "status" = 'sending';
--> statement-breakpoint
CREATE TABLE "mail_attachment" (
  "mail_id" bigint NOT NULL REFERENCES "mail_outbox"("id") ON DELETE CASCADE,
  "filename" text NOT NULL,
  "content_type" text NOT NULL,
  "content" bytea NOT NULL,
  CONSTRAINT "mail_attachment_pkey" PRIMARY KEY ("mail_id", "filename")
);
--> statement-breakpoint
CREATE TABLE "scheduled_mail" (
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "period" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "scheduled_mail_pkey" PRIMARY KEY ("user_id", "kind", "period")
);
