-- Syncs that keep their progress and never mark a live item removed.
-- sync_checkpoint: one row per kind whose listing is under way (or listed but not yet finished):
-- the provider's `more` token of the next page, written in the transaction of the page before
-- it, so a run that fails resumes where it stopped instead of at page 1.
CREATE TABLE "sync_checkpoint" (
	"kind" text PRIMARY KEY NOT NULL,
	"since" timestamp with time zone,
	"listing_started_at" timestamp with time zone NOT NULL,
	"next_page" text,
	"pages" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Ids a full listing of courses, destinations or dispatches has seen so far (kept across a resume).
CREATE TABLE "sync_seen" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	CONSTRAINT "sync_seen_pkey" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
-- Mirrored items the last complete full listing did not return and the provider did not
-- confirm gone (no 404 on their own GET): removed if the next full listing misses them again.
CREATE TABLE "sync_missing" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"missed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_missing_pkey" PRIMARY KEY("kind","id")
);
