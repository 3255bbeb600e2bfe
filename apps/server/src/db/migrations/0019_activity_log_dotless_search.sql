-- Log searches of IP addresses and e-mail addresses. pg_trgm takes only letters and
-- digits, so "10.70.140.1" is four words ("10", "70", "140", "1") whose trigrams nearly every
-- row of the log has (every IP starts "10."), and "farid.15" is "farid" and "15": the trigram
-- index found 3,000 candidates a month for 200 matches, each checked on the table. With the
-- dots taken out, "10701401" and "farid15" are one word each, and their trigrams keep the order
-- of the parts: a search containing a dot looks up this index (then checks the text itself).
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "activity_log_search_dotless_idx" ON "activity_log" USING gin (translate("search_text", '.', '') gin_trgm_ops);
  END IF;
END $$;
