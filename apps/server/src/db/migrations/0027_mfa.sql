-- Second factors: authenticator apps (TOTP, key sealed with the secret box) and passkeys
-- (WebAuthn credentials), one-use recovery codes (hashed), the short-lived tokens between the
-- password and the second step, and the rules that make a factor required.
CREATE TABLE "mfa_factor" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "name" text NOT NULL,
  "totp_secret" text,
  "totp_last_step" bigint,
  "credential_id" text,
  "public_key" text,
  "sign_count" bigint,
  "transports" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "confirmed_at" timestamp with time zone,
  "last_used_at" timestamp with time zone,
  CONSTRAINT "mfa_factor_kind_check" CHECK ("kind" in ('totp','passkey')),
  CONSTRAINT "mfa_factor_totp_check" CHECK ("kind" <> 'totp' OR "totp_secret" IS NOT NULL),
  CONSTRAINT "mfa_factor_passkey_check" CHECK (
    "kind" <> 'passkey' OR ("credential_id" IS NOT NULL AND "public_key" IS NOT NULL AND "sign_count" IS NOT NULL)
  )
);
--> statement-breakpoint
CREATE INDEX "mfa_factor_user_id_idx" ON "mfa_factor" ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_factor_credential_id_key" ON "mfa_factor" ("credential_id");
--> statement-breakpoint
CREATE TABLE "mfa_recovery_code" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "app_user"("id") ON DELETE CASCADE,
  "code_hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_recovery_code_hash_key" ON "mfa_recovery_code" ("code_hash");
--> statement-breakpoint
CREATE INDEX "mfa_recovery_code_user_id_idx" ON "mfa_recovery_code" ("user_id");
--> statement-breakpoint
CREATE TABLE "mfa_challenge" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "token_hash" text NOT NULL,
  "user_id" uuid REFERENCES "app_user"("id") ON DELETE CASCADE,
  "purpose" text NOT NULL,
  "details" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "webauthn_challenge" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  CONSTRAINT "mfa_challenge_purpose_check" CHECK ("purpose" in ('verify','enrol','passkey'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_challenge_token_hash_key" ON "mfa_challenge" ("token_hash");
--> statement-breakpoint
CREATE INDEX "mfa_challenge_expires_at_idx" ON "mfa_challenge" ("expires_at");
--> statement-breakpoint
CREATE TABLE "mfa_role_rule" (
  "role" text PRIMARY KEY NOT NULL,
  "required" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "mfa_role_rule_role_check" CHECK ("role" in ('admin','internal','sales','client'))
);
--> statement-breakpoint
CREATE TABLE "mfa_company_rule" (
  "company_id" text PRIMARY KEY NOT NULL REFERENCES "company"("id") ON DELETE CASCADE,
  "required" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_session" ADD COLUMN "last_used_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("kind" in ('alert', 'digest', 'report', 'security'));
