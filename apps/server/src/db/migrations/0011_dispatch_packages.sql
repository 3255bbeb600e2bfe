-- Dispatches created from the portal, request fulfilment, registration counter resets.
-- The last counter reset of a dispatch (SCORM Cloud registrationResetDate), mirrored by the sync.
ALTER TABLE "dispatch" ADD COLUMN "registration_reset_date" timestamp with time zone;
--> statement-breakpoint
-- The dispatch that fulfilled a request (the client's row links to it). No foreign key: the
-- mirror row may arrive after the link (a retry, the next sync) and dispatch rows are provider-owned.
ALTER TABLE "course_request" ADD COLUMN "dispatch_id" text;
--> statement-breakpoint
-- A fulfilment under way: written before SCORM Cloud is called, cleared when the request is
-- PROCESSED, so a retry after any partial failure repeats the same target (idempotent).
ALTER TABLE "course_request" ADD COLUMN "fulfil_mode" text;
--> statement-breakpoint
ALTER TABLE "course_request" ADD COLUMN "fulfil_dispatch_id" text;
--> statement-breakpoint
ALTER TABLE "course_request" ADD COLUMN "fulfil_registration_cap" integer;
--> statement-breakpoint
ALTER TABLE "course_request" ADD CONSTRAINT "course_request_fulfil_mode_check" CHECK ("fulfil_mode" IS NULL OR "fulfil_mode" IN ('create', 'add'));
