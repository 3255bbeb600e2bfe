-- Passkeys registered from Profile keep their challenge here (hashed, single use, short-lived)
-- like every other second-step token; a passkey's credential lives in mfa_factor (0027).
ALTER TABLE "mfa_challenge" DROP CONSTRAINT "mfa_challenge_purpose_check";
--> statement-breakpoint
ALTER TABLE "mfa_challenge" ADD CONSTRAINT "mfa_challenge_purpose_check" CHECK ("purpose" in ('verify','enrol','passkey','passkey-register'));
--> statement-breakpoint
-- With a company's single sign-on, a second factor the provider reports (OIDC `amr`) counts
-- when the company says so; the handoff between the provider's answer and the sign-in page
-- carries what the provider reported.
ALTER TABLE "mfa_company_rule" ADD COLUMN "trust_provider_factor" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sso_handoff" ADD COLUMN "amr" jsonb;
