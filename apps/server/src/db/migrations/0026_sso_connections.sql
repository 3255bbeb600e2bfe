-- Single sign-on per company: one connection (OIDC now, SAML later: `protocol` says which
-- settings apply), the e-mail domains that lead to it (one company per domain), and the
-- short-lived rows of a sign-in in progress, kept here so any server process can finish it.
CREATE TABLE "sso_connection" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "company_id" text NOT NULL REFERENCES "company"("id") ON DELETE CASCADE,
  "protocol" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "sso_required" boolean DEFAULT false NOT NULL,
  "create_users" boolean DEFAULT false NOT NULL,
  "oidc_issuer" text,
  "oidc_client_id" text,
  "oidc_client_secret" text,
  "oidc_scopes" text,
  "oidc_email_claim" text,
  "oidc_name_claim" text,
  "saml_settings" jsonb,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sso_connection_protocol_check" CHECK ("protocol" in ('oidc','saml')),
  CONSTRAINT "sso_connection_oidc_check" CHECK (
    "protocol" <> 'oidc' OR ("oidc_issuer" IS NOT NULL AND "oidc_client_id" IS NOT NULL)
  )
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sso_connection_company_id_key" ON "sso_connection" ("company_id");
--> statement-breakpoint
CREATE TABLE "sso_domain" (
  "domain" text PRIMARY KEY NOT NULL,
  "company_id" text NOT NULL REFERENCES "company"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sso_domain_lower_check" CHECK ("domain" = lower("domain"))
);
--> statement-breakpoint
CREATE INDEX "sso_domain_company_id_idx" ON "sso_domain" ("company_id");
--> statement-breakpoint
CREATE TABLE "sso_flow" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "connection_id" uuid NOT NULL REFERENCES "sso_connection"("id") ON DELETE CASCADE,
  "state" text NOT NULL,
  "nonce" text NOT NULL,
  "code_verifier" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sso_flow_expires_at_idx" ON "sso_flow" ("expires_at");
--> statement-breakpoint
CREATE TABLE "sso_handoff" (
  "code_hash" text PRIMARY KEY NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "connection_id" uuid NOT NULL REFERENCES "sso_connection"("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL,
  "consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sso_session" (
  "session_id" uuid PRIMARY KEY NOT NULL REFERENCES "auth_session"("id") ON DELETE CASCADE,
  "connection_id" uuid NOT NULL REFERENCES "sso_connection"("id") ON DELETE CASCADE
);
