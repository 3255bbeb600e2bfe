-- SAML 2.0 connections: each assertion id an identity provider sent is kept until the assertion
-- expires, so a replayed assertion is refused by every server process. A SAML sign-in finds its
-- flow by the AuthnRequest's id (kept in `state`), since the provider posts back from another site.
CREATE TABLE "sso_assertion" (
  "issuer" text NOT NULL,
  "assertion_id" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "sso_assertion_pkey" PRIMARY KEY ("issuer", "assertion_id")
);
--> statement-breakpoint
CREATE INDEX "sso_assertion_expires_at_idx" ON "sso_assertion" ("expires_at");
--> statement-breakpoint
CREATE INDEX "sso_flow_state_idx" ON "sso_flow" ("state");
