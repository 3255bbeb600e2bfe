-- Secondary indexes set aside while a first sync fills a table in bulk (db/indexes-aside.ts).
--
-- A row inserted into a table with a dozen indexes (a trigram index among them) goes into each,
-- at a random place of most; a table filled from empty with its indexes built afterwards costs
-- a fraction of that, as pg_restore does it. Each definition is kept here, in the transaction
-- that drops the index, so a process that dies while the table fills leaves a note of what to
-- build again rather than a table without its indexes for good: the step that set them aside
-- creates them again when it next finishes.
CREATE TABLE "index_aside" (
  "name" text PRIMARY KEY,
  "table_name" text NOT NULL,
  "definition" text NOT NULL
);
