-- Scheduled renewals: on run_on (a UTC day) the job engine sets a dispatch's new cap and/or
-- expiry and/or resets its counter through the dispatch update path. status moves
-- scheduled -> running -> done | failed (or scheduled -> cancelled); the move to running is one
-- conditional UPDATE, so of two workers only one carries a renewal out. A failed write goes back
-- to scheduled with next_attempt_at later, until the attempts run out.
CREATE TABLE "dispatch_renewal" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "dispatch_id" text NOT NULL REFERENCES "dispatch"("id"),
  "company_id" text NOT NULL REFERENCES "company"("id"),
  "run_on" date NOT NULL,
  "registration_cap" integer,
  "expiration_date" date,
  "reset_count" boolean DEFAULT false NOT NULL,
  "rollover_months" integer,
  "source" text DEFAULT 'schedule' NOT NULL CHECK ("source" in ('schedule', 'rollover')),
  "status" text DEFAULT 'scheduled' NOT NULL CHECK ("status" in ('scheduled', 'running', 'done', 'failed', 'cancelled')),
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone,
  "started_at" timestamp with time zone,
  "finished_at" timestamp with time zone,
  "last_error" text,
  "scheduled_by_id" uuid,
  "scheduled_by_name" text,
  "scheduled_by_email" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dispatch_renewal_due_idx" ON "dispatch_renewal" ("run_on") WHERE "status" in ('scheduled', 'running');
--> statement-breakpoint
CREATE INDEX "dispatch_renewal_company_idx" ON "dispatch_renewal" ("company_id", "run_on");
--> statement-breakpoint
CREATE INDEX "dispatch_renewal_dispatch_idx" ON "dispatch_renewal" ("dispatch_id");
--> statement-breakpoint
-- A rollover makes at most one renewal per expiry it meets, whichever worker sees it first.
CREATE UNIQUE INDEX "dispatch_renewal_rollover_once_idx" ON "dispatch_renewal" ("dispatch_id", "run_on") WHERE "source" = 'rollover';
--> statement-breakpoint
-- Per dispatch: at each expiry, extend by months and reset the counter (set by a renewal that
-- carries rolloverMonths; staff who scheduled it are who the made renewals name).
CREATE TABLE "dispatch_rollover" (
  "dispatch_id" text PRIMARY KEY NOT NULL REFERENCES "dispatch"("id"),
  "months" integer NOT NULL CHECK ("months" between 1 and 120),
  "scheduled_by_id" uuid,
  "scheduled_by_name" text,
  "scheduled_by_email" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("kind" in ('alert', 'digest', 'report', 'security', 'renewal'));
