import { and, eq, isNull } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { companyShownName } from '../../db/columns'
import { company } from '../../db/schema'
import { queryRows } from '../../db/statement'
import { statementLearnersSql, statementLinesSql, statementRecipientsSql, type StatementWindow } from './statements.sql'

export interface StatementRecipientRow {
  user_id: string
  email: string
  company_id: string
  company_name: string
}

export interface StatementLineRow {
  dispatch_id: string
  course_title: string
  added: number
  learners: number
  completions: number
  cap_at_end: number
  count_at_end: number
}

/** The monthly usage statements' reads (statements.sql.ts). */
export function createStatementsRepository(db: Db) {
  return {
    /** The company's shown name; null when no such company is mirrored, or it is another client's. */
    async companyName(companyId: string, tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx
        .select({ name: companyShownName })
        .from(company)
        .where(and(eq(company.id, companyId), isNull(company.removedAt)))
      return row?.name ?? null
    },

    lines: (window: StatementWindow, tx: DbOrTx = db) => queryRows<StatementLineRow>(tx, statementLinesSql(window)),

    /** Who gets the monthly statement mail of which company (statements.sql.ts). */
    recipients: (tx: DbOrTx = db) => queryRows<StatementRecipientRow>(tx, statementRecipientsSql()),

    async learners(window: StatementWindow, tx: DbOrTx = db): Promise<number> {
      const [row] = await queryRows<{ learners: number }>(tx, statementLearnersSql(window))
      return Number(row?.learners ?? 0)
    },
  }
}
export type StatementsRepository = ReturnType<typeof createStatementsRepository>
