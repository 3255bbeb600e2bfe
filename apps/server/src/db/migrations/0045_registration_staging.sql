-- A first full listing of registrations written in bulk (docs/performance.md "Sync").
--
-- Page by page, each registration went into the nine indexes of `registration` in the
-- listing's order (by the provider's `updated`), which touches a random page of most of them
-- per row: once the indexes outgrow the database's buffers, the inserts wait on reads and
-- writes of index pages. When a full listing starts with no registration mirrored (a first
-- sync), its pages go to this table instead, with only its primary key to keep up (newest copy
-- per registration, as the mirror keeps it); once listed, the rows move into `registration`
-- a group of dispatches per transaction, in the report index's order, so each index takes them
-- in runs. A listing that stops leaves its rows here with its checkpoint; the next run goes on
-- and moves them. The columns are registration's own, less its generated learner hash.
CREATE TABLE "registration_load" (LIKE "registration" INCLUDING DEFAULTS);
--> statement-breakpoint
ALTER TABLE "registration_load" DROP COLUMN "learner_hash";
--> statement-breakpoint
ALTER TABLE "registration_load" ADD PRIMARY KEY ("id");
--> statement-breakpoint
CREATE INDEX "registration_load_dispatch_idx" ON "registration_load" ("dispatch_id");
