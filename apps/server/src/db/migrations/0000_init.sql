CREATE TABLE "app_user" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"company_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone,
	CONSTRAINT "app_user_role_check" CHECK ("app_user"."role" in ('admin','internal','sales','client')),
	CONSTRAINT "app_user_status_check" CHECK ("app_user"."status" in ('active','suspended'))
);
--> statement-breakpoint
CREATE TABLE "auth_session" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refresh_token" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"replaced_by" uuid
);
--> statement-breakpoint
CREATE TABLE "company" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"account_manager_id" uuid,
	"provider_created" timestamp with time zone,
	"provider_updated" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"version" integer,
	"provider_created" timestamp with time zone,
	"provider_updated" timestamp with time zone,
	"registration_count" integer DEFAULT 0 NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"learning_standard" text,
	"app_source" text,
	"removed_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"is_visible" boolean DEFAULT false NOT NULL,
	"is_requestable" boolean DEFAULT true NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"duration" text DEFAULT '' NOT NULL,
	"level" text DEFAULT '' NOT NULL,
	"demo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_level_check" CHECK ("course"."level" in ('', 'Beginner', 'Intermediate', 'Advanced'))
);
--> statement-breakpoint
CREATE TABLE "course_request" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" text NOT NULL,
	"course_title" text NOT NULL,
	"user_id" uuid,
	"company_id" text,
	"requestor_name" text NOT NULL,
	"requestor_email" text NOT NULL,
	"licenses" integer DEFAULT 1 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"admin_notes" text DEFAULT '' NOT NULL,
	"demo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_request_licenses_check" CHECK ("course_request"."licenses" >= 1),
	CONSTRAINT "course_request_status_check" CHECK ("course_request"."status" in ('PENDING','PROCESSED','COMPLETED'))
);
--> statement-breakpoint
CREATE TABLE "dispatch" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"course_title" text NOT NULL,
	"destination_id" text NOT NULL,
	"destination_name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"allow_new_registrations" boolean DEFAULT true NOT NULL,
	"instanced" boolean DEFAULT false NOT NULL,
	"registration_count" integer DEFAULT 0 NOT NULL,
	"registration_cap" integer DEFAULT 0 NOT NULL,
	"expiration_date" timestamp with time zone,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"provider_created" timestamp with time zone,
	"provider_updated" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"synced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registration" (
	"id" text PRIMARY KEY NOT NULL,
	"instance" integer DEFAULT 0 NOT NULL,
	"dispatch_id" text NOT NULL,
	"course_id" text NOT NULL,
	"learner_id" text DEFAULT '' NOT NULL,
	"learner_first_name" text DEFAULT '' NOT NULL,
	"learner_last_name" text DEFAULT '' NOT NULL,
	"learner_email" text DEFAULT '' NOT NULL,
	"completion_status" text NOT NULL,
	"success_status" text NOT NULL,
	"score_scaled" double precision,
	"total_seconds_tracked" double precision DEFAULT 0 NOT NULL,
	"first_access_date" timestamp with time zone,
	"last_access_date" timestamp with time zone,
	"completed_date" timestamp with time zone,
	"created_date" timestamp with time zone,
	"provider_updated" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"synced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "activity_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"actor_name" text,
	"actor_email" text,
	"action" text NOT NULL,
	"details" jsonb,
	"ip_address" text
);
--> statement-breakpoint
CREATE TABLE "sync_cursor" (
	"kind" text PRIMARY KEY NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_run" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sync_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"message" text
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD CONSTRAINT "app_user_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_session" ADD CONSTRAINT "auth_session_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_session_id_auth_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company" ADD CONSTRAINT "company_account_manager_id_app_user_id_fk" FOREIGN KEY ("account_manager_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_request" ADD CONSTRAINT "course_request_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_request" ADD CONSTRAINT "course_request_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_request" ADD CONSTRAINT "course_request_company_id_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."company"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_course_id_course_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."course"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_destination_id_company_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."company"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_dispatch_id_dispatch_id_fk" FOREIGN KEY ("dispatch_id") REFERENCES "public"."dispatch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "app_user_company_id_idx" ON "app_user" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "app_user_role_idx" ON "app_user" USING btree ("role");--> statement-breakpoint
CREATE INDEX "auth_session_user_id_idx" ON "auth_session" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_token_token_hash_key" ON "refresh_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_token_session_id_idx" ON "refresh_token" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "company_name_idx" ON "company" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "company_account_manager_id_idx" ON "company" USING btree ("account_manager_id");--> statement-breakpoint
CREATE INDEX "course_title_idx" ON "course" USING btree (lower("title"));--> statement-breakpoint
CREATE INDEX "course_is_visible_idx" ON "course" USING btree ("is_visible");--> statement-breakpoint
CREATE INDEX "course_request_user_id_idx" ON "course_request" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "course_request_company_id_idx" ON "course_request" USING btree ("company_id","course_id");--> statement-breakpoint
CREATE INDEX "course_request_course_id_idx" ON "course_request" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "course_request_created_at_idx" ON "course_request" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "dispatch_destination_id_idx" ON "dispatch" USING btree ("destination_id");--> statement-breakpoint
CREATE INDEX "dispatch_course_id_idx" ON "dispatch" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "dispatch_destination_name_idx" ON "dispatch" USING btree ("destination_name","id");--> statement-breakpoint
CREATE INDEX "dispatch_course_title_idx" ON "dispatch" USING btree ("course_title","id");--> statement-breakpoint
CREATE INDEX "dispatch_registration_count_idx" ON "dispatch" USING btree ("registration_count","id");--> statement-breakpoint
CREATE INDEX "dispatch_enabled_idx" ON "dispatch" USING btree ("enabled","destination_name");--> statement-breakpoint
CREATE INDEX "registration_dispatch_last_access_idx" ON "registration" USING btree ("dispatch_id","last_access_date","id");--> statement-breakpoint
CREATE INDEX "registration_dispatch_status_idx" ON "registration" USING btree ("dispatch_id","completion_status");--> statement-breakpoint
CREATE INDEX "registration_course_id_idx" ON "registration" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "activity_log_created_at_idx" ON "activity_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_log_action_created_at_idx" ON "activity_log" USING btree ("action","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_log_user_id_created_at_idx" ON "activity_log" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sync_run_kind_started_at_idx" ON "sync_run" USING btree ("kind","started_at" DESC NULLS LAST);