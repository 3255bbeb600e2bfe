-- A process that stops while sending leaves its claimed mails `sending`. Only a mail whose
-- handover to the SMTP server had begun may have been delivered; every other claimed mail was
-- never tried. The worker records the start of each handover in its own committed statement
-- just before the SMTP transaction, so that after the lease runs out the mails never handed over
-- are sent again and only the one in doubt becomes `uncertain`.
ALTER TABLE "mail_outbox" ADD COLUMN "handover_started_at" timestamp with time zone;
