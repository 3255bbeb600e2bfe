-- A process that remembers session checks (db/session-user.ts, on PGlite, which one process alone
-- opens) must forget them at any write that could change one: a session signed out, revoked or
-- extended, a user suspended, deleted, renamed or given another role or password, a company
-- renamed. Statement triggers on the three tables the check reads notify it, whichever path wrote.
-- Only a connection that asked for the notices (`portal.session_notices` on) sends them: on
-- PostgreSQL no process remembers checks, and a NOTIFY would serialize the writers' commits.
CREATE FUNCTION "session_user_notice"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('portal.session_notices', true) = 'on' THEN
    PERFORM pg_notify('session_user_changed', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "auth_session_notice" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "auth_session"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_user_notice"();
--> statement-breakpoint
CREATE TRIGGER "app_user_notice" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "app_user"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_user_notice"();
--> statement-breakpoint
CREATE TRIGGER "company_notice" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "company"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_user_notice"();
