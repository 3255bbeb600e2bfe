-- A deep staff page sorted by company or course, without a status filter, reads the kept counts
-- by key in the order of this primary key, up to the key that holds the page. With the count in
-- the index that read is an index-only scan; counts change only when a dispatch is added, removed,
-- renamed or switched on or off.
ALTER TABLE "dispatch_sort_count" DROP CONSTRAINT "dispatch_sort_count_pkey";
--> statement-breakpoint
ALTER TABLE "dispatch_sort_count" ADD CONSTRAINT "dispatch_sort_count_pkey" PRIMARY KEY ("sort", "key", "enabled") INCLUDE ("dispatches");
