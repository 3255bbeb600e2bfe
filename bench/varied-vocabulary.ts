/**
 * What the varied mix draws from: real course titles, company names, learner names
 * and e-mails, log actors, IPs and dispatch ids, read from the bench database once per run.
 */
import type { SqlRunner } from './sql-runner'

export interface Vocabulary {
  courseWords: string[]
  courseTitles: string[]
  companyNames: string[]
  companyWords: string[]
  dispatchIds: string[]
  learnerFirstNames: string[]
  learnerLastNames: string[]
  learnerEmails: string[]
  /** The big dispatch's last-access range, YYYY-MM-DD. */
  reportRange: { start: string; end: string }
  logUserIds: string[]
  logTerms: string[]
  logRange: { start: string; end: string }
  /** The courses of the big dispatch's company (the learner view's course filter). */
  companyCourseIds: string[]
}

/** YYYY-MM-DD of a date (UTC). */
export const day = (d: Date) => d.toISOString().slice(0, 10)

export async function loadVocabulary(db: SqlRunner, bigDispatchId: string): Promise<Vocabulary> {
  const list = async (text: string, params: unknown[] = []) =>
    (await db.query<{ v: string }>(text, params)).rows.map((r) => r.v).filter(Boolean)
  const courseTitles = await list(`select title as v from course where removed_at is null order by id`)
  const companyNames = await list(`select name as v from company where removed_at is null order by id`)
  const words = (texts: string[]) =>
    [...new Set(texts.flatMap((t) => t.split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 3))].sort()
  const range = (
    await db.query<{ start: Date; end: Date }>(
      `select min(last_access_date) as start, max(last_access_date) as end from registration where dispatch_id = $1`,
      [bigDispatchId],
    )
  ).rows[0]!
  const logRange = (
    await db.query<{ start: Date; end: Date }>(
      `select min(created_at) as start, max(created_at) as end from activity_log`,
    )
  ).rows[0]!
  const sample = (column: string) =>
    list(
      `select distinct ${column} as v from (select ${column} from registration where dispatch_id = $1 limit 5000) s`,
      [bigDispatchId],
    )
  return {
    courseWords: words(courseTitles),
    courseTitles,
    companyNames,
    companyWords: words(companyNames),
    dispatchIds: await list(`select id as v from dispatch where removed_at is null order by id limit 2000`),
    learnerFirstNames: await sample('learner_first_name'),
    learnerLastNames: await sample('learner_last_name'),
    learnerEmails: await sample('learner_email'),
    reportRange: { start: day(new Date(range.start)), end: day(new Date(range.end)) },
    logUserIds: await list(`select distinct user_id::text as v from activity_log_user_day order by 1 limit 400`),
    logTerms: [
      ...(await list(`select distinct actor_name as v from (select actor_name from activity_log limit 5000) s`)),
      ...(await list(
        `select distinct split_part(actor_email, '@', 1) as v from (select actor_email from activity_log limit 2000) s`,
      )),
      ...(await list(`select distinct ip_address as v from (select ip_address from activity_log limit 2000) s`)),
      'signed in',
      'signed out',
      'dashboard',
      'safety',
      'excel',
      'wrong password',
      'disp-1234',
      'course-17',
    ],
    logRange: { start: day(new Date(logRange.start)), end: day(new Date(logRange.end)) },
    companyCourseIds: await list(
      `select distinct course_id as v from dispatch
       where removed_at is null and destination_id = (select destination_id from dispatch where id = $1) order by 1`,
      [bigDispatchId],
    ),
  }
}
