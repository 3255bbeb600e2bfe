-- Bulk actions on dispatches: one run, one item per dispatch with its own state, so a worker
-- that dies mid-run leaves items the next worker picks up (a running item whose claim is older
-- than the lease is claimed again).
CREATE TABLE "bulk_run" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "action" text NOT NULL,
  "params" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "status" text DEFAULT 'running' NOT NULL CHECK ("status" in ('running', 'finished')),
  "total" integer NOT NULL,
  "created_by_id" uuid,
  "created_by_name" text,
  "created_by_email" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bulk_run_item" (
  "run_id" uuid NOT NULL REFERENCES "bulk_run"("id") ON DELETE CASCADE,
  "position" integer NOT NULL,
  "dispatch_id" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL CHECK ("status" in ('pending', 'running', 'done', 'failed')),
  "error" text,
  "claimed_at" timestamp with time zone,
  "finished_at" timestamp with time zone,
  CONSTRAINT "bulk_run_item_pkey" PRIMARY KEY ("run_id", "position")
);
--> statement-breakpoint
CREATE INDEX "bulk_run_item_open_idx" ON "bulk_run_item" ("run_id", "position") WHERE "status" in ('pending', 'running');
