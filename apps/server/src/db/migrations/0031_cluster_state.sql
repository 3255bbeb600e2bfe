-- State several server nodes on one database must agree on. API rate-limit counters: one row
-- per limited key and window, counted in one statement so concurrent requests on any node all
-- count. Deployment secret fingerprints: a keyed hash (HMAC of a fixed label) of each secret
-- every node must share, written by the first node to start, so a node started with another
-- secret can tell and refuse to start.
CREATE TABLE "rate_limit_counter" (
  "key" text PRIMARY KEY NOT NULL,
  "hits" integer NOT NULL,
  "window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counter_window_ends_at_idx" ON "rate_limit_counter" ("window_ends_at");
--> statement-breakpoint
CREATE TABLE "secret_fingerprint" (
  "name" text PRIMARY KEY NOT NULL,
  "fingerprint" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The last SCORM Cloud error a sync met (cleared by a sync that succeeds), for the sync status
-- screen: any node may have run the sync, and every node reports the same.
CREATE TABLE "sync_provider_state" (
  "id" boolean PRIMARY KEY DEFAULT true NOT NULL CHECK ("id"),
  "last_error" text,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
