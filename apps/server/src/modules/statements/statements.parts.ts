import type { Db } from '../../db/client'
import type { MailOutbox } from '../mail/mail.parts'
import { queueStatementMails, type StatementMailsDeps } from './statement-mails'
import { createStatementsRepository } from './statements.repository'
import { createStatementsService } from './statements.service'

/** The statements service, its monthly mail's dependencies and the mail pass (built once by app.ts). */
export function createStatementParts(deps: { db: Db; mails: MailOutbox; publicUrl: string }) {
  const repository = createStatementsRepository(deps.db)
  const statements = createStatementsService({ statements: repository })
  const mail: StatementMailsDeps = { ...deps, statements, repository }
  return { statements, mail, queueMails: (now?: Date) => queueStatementMails(mail, now) }
}
