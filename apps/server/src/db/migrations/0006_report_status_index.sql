CREATE TABLE "dispatch_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "registration_dispatch_status_idx";--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "registration_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "registration_report_status_idx" ON "registration" USING btree ("dispatch_id","completion_status","last_access_date" DESC NULLS LAST,"id") WHERE "registration"."removed_at" is null;