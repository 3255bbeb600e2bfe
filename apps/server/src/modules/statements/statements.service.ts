import {
  STATEMENT_EXPORT_COLUMNS,
  STATEMENT_MESSAGES,
  ownCompanyOnly,
  statementExportBaseName,
  type ExportFormat,
  type Statement,
  type StatementLine,
  type StatementQuery,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { exportFile, readAhead, type ExportFile, type ExportTable } from '../../lib/table-export'
import type { Viewer } from '../../lib/viewer'
import type { StatementsRepository } from './statements.repository'

export const COMPANY_NOT_FOUND = 'Company not found.'

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/
const YEAR = /^\d{4}$/

export interface Period {
  /** yyyy-MM or yyyy. */
  label: string
  start: Date
  end: Date
}

const badPeriod = (field: string, message: string = STATEMENT_MESSAGES.badPeriod) =>
  new AppError('VALIDATION_FAILED', message, { details: [{ field, message }] })

/**
 * A statement's period: a calendar month (yyyy-MM) or year (yyyy) in UTC, one of the two (last
 * month when neither is given). A period that has not started is refused; the current one runs to date.
 */
export function parsePeriod(query: StatementQuery, now = new Date()): Period {
  const year = query.year?.trim() || undefined
  // Neither given: last month, the period the screen opens on and the monthly mail sends.
  const month = query.month?.trim() || (year === undefined ? previousMonth(now) : undefined)
  if (month !== undefined && year !== undefined) throw badPeriod('year')
  let start: Date
  let end: Date
  if (month !== undefined) {
    const m = MONTH.exec(month)
    if (!m) throw badPeriod('month')
    start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))
    end = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1))
  } else {
    if (!YEAR.test(year!)) throw badPeriod('year')
    start = new Date(Date.UTC(Number(year), 0, 1))
    end = new Date(Date.UTC(Number(year) + 1, 0, 1))
  }
  if (start.getTime() > now.getTime()) throw badPeriod(month ? 'month' : 'year', STATEMENT_MESSAGES.futurePeriod)
  return { label: (month ?? year)!, start, end }
}

/** The previous calendar month of `now` (UTC), as yyyy-MM: what the monthly mail sends. */
export function previousMonth(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
  return d.toISOString().slice(0, 7)
}

const statementTable = (statement: Statement): ExportTable<StatementLine | 'total'> => ({
  name: statementExportBaseName(statement.companyName, statement.period),
  sheetName: `Statement ${statement.period}`,
  columns: STATEMENT_EXPORT_COLUMNS.map((header) => ({
    header,
    kind: header === 'Course' || header === 'Dispatch' ? ('text' as const) : ('number' as const),
  })),
  cells: (line) =>
    line === 'total'
      ? [
          'Total',
          `${statement.lines.length} dispatches`,
          statement.total.registrationsAdded,
          statement.total.learnersLaunched,
          statement.total.completions,
          '',
          '',
          statement.total.unlimitedDispatches > 0
            ? `${statement.total.remainingAtEnd} + ${statement.total.unlimitedDispatches} unlimited`
            : statement.total.remainingAtEnd,
        ]
      : [
          line.courseTitle,
          line.dispatchId,
          line.registrationsAdded,
          line.learnersLaunched,
          line.completions,
          line.capAtEnd ?? 'Unlimited',
          line.countAtEnd,
          line.remainingAtEnd ?? 'Unlimited',
        ],
})

/**
 * Monthly (and yearly) usage statements per company: per dispatch and in total, the
 * registrations added, distinct learners who launched, completions, and licences remaining at
 * the period's end. A client reads its own company's only: any other company is not found,
 * as for dispatches.
 */
export function createStatementsService(deps: { statements: StatementsRepository }) {
  const { statements } = deps

  async function build(companyId: string, companyName: string, period: Period, tx?: DbOrTx): Promise<Statement> {
    const window = { companyId, start: period.start, end: period.end }
    const [rows, learners] = await Promise.all([statements.lines(window, tx), statements.learners(window, tx)])
    const lines: StatementLine[] = rows.map((r) => {
      const cap = Number(r.cap_at_end)
      const count = Number(r.count_at_end)
      return {
        dispatchId: String(r.dispatch_id),
        courseTitle: String(r.course_title),
        registrationsAdded: Number(r.added),
        learnersLaunched: Number(r.learners),
        completions: Number(r.completions),
        capAtEnd: cap > 0 ? cap : null,
        countAtEnd: count,
        remainingAtEnd: cap > 0 ? Math.max(0, cap - count) : null,
      }
    })
    return {
      companyId,
      companyName,
      period: period.label,
      start: period.start.toISOString(),
      end: period.end.toISOString(),
      lines,
      total: {
        registrationsAdded: lines.reduce((n, l) => n + l.registrationsAdded, 0),
        learnersLaunched: learners,
        completions: lines.reduce((n, l) => n + l.completions, 0),
        remainingAtEnd: lines.reduce((n, l) => n + (l.remainingAtEnd ?? 0), 0),
        unlimitedDispatches: lines.filter((l) => l.remainingAtEnd === null).length,
      },
    }
  }

  async function requireCompany(viewer: Viewer, companyId: string): Promise<string> {
    if (ownCompanyOnly(viewer.role) && viewer.companyId !== companyId)
      throw new AppError('NOT_FOUND', COMPANY_NOT_FOUND)
    const name = await statements.companyName(companyId)
    if (name === null) throw new AppError('NOT_FOUND', COMPANY_NOT_FOUND)
    return name
  }

  return {
    /** For the monthly mail (no viewer: the job decides who receives which company's). */
    build,

    async statement(viewer: Viewer, companyId: string, query: StatementQuery, now = new Date()): Promise<Statement> {
      const period = parsePeriod(query, now)
      return build(companyId, await requireCompany(viewer, companyId), period)
    },

    async exportFile(
      viewer: Viewer,
      companyId: string,
      query: StatementQuery,
      format: ExportFormat,
      now = new Date(),
    ): Promise<ExportFile> {
      const statement = await this.statement(viewer, companyId, query, now)
      async function* one(): AsyncGenerator<(StatementLine | 'total')[]> {
        yield [...statement.lines, 'total']
      }
      return exportFile(format, statementTable(statement), await readAhead(one()))
    },

    /** The statement as a mail attachment's table (header and rows of the export). */
    tableOf(statement: Statement) {
      const table = statementTable(statement)
      return {
        name: table.name,
        columns: table.columns.map((c) => c.header),
        rows: [...statement.lines, 'total' as const].map((l) =>
          table.cells(l).map((c) => (c instanceof Date ? c.toISOString() : c)),
        ),
      }
    },
  }
}
export type StatementsService = ReturnType<typeof createStatementsService>
