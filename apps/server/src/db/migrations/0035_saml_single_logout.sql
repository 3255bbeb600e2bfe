-- SAML single logout: the subject (NameID, its format, SessionIndex) of a SAML sign-in travels
-- with the one-time code to the portal session, so signing out can name it in a LogoutRequest;
-- the LogoutRequest's id waits in sso_flow for the provider's LogoutResponse.
ALTER TABLE "sso_handoff" ADD COLUMN "saml_subject" jsonb;
--> statement-breakpoint
ALTER TABLE "sso_session" ADD COLUMN "saml_subject" jsonb;
--> statement-breakpoint
ALTER TABLE "sso_flow" ADD COLUMN "purpose" text DEFAULT 'sign_in' NOT NULL;
