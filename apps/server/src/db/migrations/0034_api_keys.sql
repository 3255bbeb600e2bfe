-- API keys (service accounts). Only the SHA-256 of a key is kept; its `prefix` (unique, the
-- lookup of every call made with it) is the visible start of the key. A vendor key has no
-- company; a company's key acts within that company only. A deleted creator takes its keys.
CREATE TABLE "api_key" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "company_id" text REFERENCES "company"("id") ON DELETE CASCADE,
  "created_by" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "prefix" text NOT NULL,
  "secret_hash" text NOT NULL,
  "scopes" jsonb NOT NULL,
  "expires_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "rotated_at" timestamp with time zone,
  "revoked_at" timestamp with time zone,
  "last_used_at" timestamp with time zone,
  "last_used_ip" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_prefix_key" ON "api_key" ("prefix");
--> statement-breakpoint
CREATE INDEX "api_key_company_id_idx" ON "api_key" ("company_id");
--> statement-breakpoint
ALTER TABLE "company" ADD COLUMN "api_keys_allowed" boolean DEFAULT false NOT NULL;
