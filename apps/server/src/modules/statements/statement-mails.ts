import type { Db } from '../../db/client'
import { defineSweep, type JobSchedule } from '../jobs/job-engine'
import { renderReportMail } from '../mail/mail-render'
import type { MailOutbox } from '../mail/mail.parts'
import { xlsxReportAttachment } from '../mail/report-attachment'
import type { StatementsRepository } from './statements.repository'
import { parsePeriod, previousMonth, type StatementsService } from './statements.service'

/** The monthly usage statement mails: on the first day of each month, for the month before. */
export const STATEMENT_MAILS_JOB = 'statement-mails'

export interface StatementMailsDeps {
  db: Db
  statements: StatementsService
  repository: StatementsRepository
  mails: MailOutbox
  publicUrl: string
}

/**
 * Queues, in one transaction, one mail per recipient for the month before `now`: an account
 * manager's holds a statement (.xlsx) per company it manages, an opted-in client user's its own
 * company's. The outbox's idempotency key (user and month) makes a second run of the same month
 * (a retry, another server) queue nothing.
 */
export async function queueStatementMails(deps: StatementMailsDeps, now = new Date()): Promise<number> {
  const month = previousMonth(now)
  const period = parsePeriod({ month }, now)
  return deps.db.transaction(async (tx) => {
    const byUser = new Map<string, { email: string; companies: { id: string; name: string }[] }>()
    for (const r of await deps.repository.recipients(tx)) {
      const entry = byUser.get(r.user_id) ?? { email: r.email, companies: [] }
      entry.companies.push({ id: r.company_id, name: r.company_name })
      byUser.set(r.user_id, entry)
    }
    const built = new Map<string, Awaited<ReturnType<StatementsService['build']>>>()
    const mails = []
    for (const [userId, { email, companies }] of byUser) {
      const attachments = []
      const summary: string[] = []
      for (const company of companies) {
        let statement = built.get(company.id)
        if (!statement) {
          statement = await deps.statements.build(company.id, company.name, period, tx)
          built.set(company.id, statement)
        }
        const t = statement.total
        summary.push(
          `${company.name}: ${t.registrationsAdded} registrations added, ${t.learnersLaunched} learners launched, ` +
            `${t.completions} completions, ${t.remainingAtEnd} licences remaining` +
            (t.unlimitedDispatches > 0 ? ` (plus ${t.unlimitedDispatches} unlimited dispatches).` : '.'),
        )
        attachments.push(await xlsxReportAttachment.build(deps.statements.tableOf(statement)))
      }
      const title = `Usage statement ${month}`
      const mail = renderReportMail(title, summary, attachments.map((a) => a.filename).join(', '), deps.publicUrl)
      mails.push({
        idempotencyKey: `statement:${userId}:${month}`,
        kind: 'report' as const,
        userId,
        to: email,
        ...mail,
        attachments,
      })
    }
    return mails.length > 0 ? deps.mails.enqueue(mails, tx) : 0
  })
}

/** The job and its schedule: 05:00 UTC on the first of every month. */
export function statementMailJobs(deps: StatementMailsDeps) {
  const job = defineSweep(STATEMENT_MAILS_JOB, async () => ({ queued: await queueStatementMails(deps) }))
  const schedule: JobSchedule = { name: STATEMENT_MAILS_JOB, cron: '0 5 1 * *' }
  return { job, schedule }
}
