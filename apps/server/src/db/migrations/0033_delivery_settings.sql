-- Delivery settings (docs/scorm-cloud-api.md §5, §6): the destination's launch authentication as
-- SCORM Cloud sends it (read by the sync; null = not sent, the provider's default of cookies),
-- learner data hashing as last read from SCORM Cloud (null = not read yet), and the style sheet
-- URL the portal passes as `cssUrl` when it fetches a package (portal-owned: SCORM Cloud keeps none).
ALTER TABLE "company" ADD COLUMN "launch_auth_type" text;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "launch_auth_ip_address" boolean;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "launch_auth_fingerprint" boolean;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "launch_auth_expiry" integer;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "launch_auth_sliding_expiry" integer;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "hash_user_info" boolean;
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "css_url" text;
--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "hash_user_info" boolean;
--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "css_url" text;
