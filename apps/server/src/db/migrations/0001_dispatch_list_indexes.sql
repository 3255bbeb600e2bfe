DROP INDEX "dispatch_destination_name_idx";--> statement-breakpoint
DROP INDEX "dispatch_course_title_idx";--> statement-breakpoint
DROP INDEX "dispatch_enabled_idx";--> statement-breakpoint
DROP INDEX "registration_dispatch_last_access_idx";--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "active_registration_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "dispatch_destination_name_idx" ON "dispatch" USING btree (lower("destination_name"),"id");--> statement-breakpoint
CREATE INDEX "dispatch_course_title_idx" ON "dispatch" USING btree (lower("course_title"),"id");--> statement-breakpoint
CREATE INDEX "dispatch_enabled_idx" ON "dispatch" USING btree ("enabled",lower("destination_name"),"id");--> statement-breakpoint
CREATE INDEX "registration_dispatch_last_access_idx" ON "registration" USING btree ("dispatch_id","last_access_date" DESC NULLS LAST,"id");