-- The learner list asks, with every page, for the courses of the company's live dispatches (its
-- course filter's choices), ordered by title. Read from the table, that is one heap page per
-- dispatch and a sort; this index holds them in that order with their titles, so the list is an
-- index-only scan of the company's entries.
CREATE INDEX "dispatch_company_courses_idx" ON "dispatch" ("destination_id", "course_key", "course_id")
  INCLUDE ("course_title") WHERE "removed_at" IS NULL;
