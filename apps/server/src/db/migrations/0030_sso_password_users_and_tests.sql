-- A company requiring single sign-on may let named client users keep their password (a
-- contractor without an account at the company's provider).
CREATE TABLE "sso_password_user" (
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "company_id" text NOT NULL REFERENCES "company"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sso_password_user_pkey" PRIMARY KEY ("user_id", "company_id")
);
--> statement-breakpoint
CREATE INDEX "sso_password_user_company_id_idx" ON "sso_password_user" ("company_id");
--> statement-breakpoint
-- An admin's "Test connection" runs a real flow: it signs nobody in and keeps, for that admin,
-- what the provider sent (claims or attributes, never a token) until the flow is cleaned up.
ALTER TABLE "sso_flow" ADD COLUMN "tested_by" uuid REFERENCES "app_user"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "sso_flow" ADD COLUMN "test_result" jsonb;
