-- The vendor's own staff sign in through one connection that belongs to no company (`staff`).
-- Its e-mail domains are `sso_domain` rows without a company (one owner per domain still), and
-- the provider's group or role claim values map to a portal role here.
ALTER TABLE "sso_connection" ALTER COLUMN "company_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "sso_connection" ADD COLUMN "staff" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sso_connection" ADD COLUMN "display_name" text;
--> statement-breakpoint
ALTER TABLE "sso_connection" ADD COLUMN "oidc_role_claim" text;
--> statement-breakpoint
ALTER TABLE "sso_connection" ADD CONSTRAINT "sso_connection_owner_check" CHECK ("staff" = ("company_id" IS NULL));
--> statement-breakpoint
CREATE UNIQUE INDEX "sso_connection_staff_key" ON "sso_connection" ("staff") WHERE "staff";
--> statement-breakpoint
ALTER TABLE "sso_domain" ALTER COLUMN "company_id" DROP NOT NULL;
--> statement-breakpoint
CREATE TABLE "sso_staff_role" (
  "claim_value" text PRIMARY KEY NOT NULL,
  "role" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sso_staff_role_role_check" CHECK ("role" in ('admin','internal','sales'))
);
