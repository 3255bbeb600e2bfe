import { csvRow } from '@portal/shared'
import type { MailFile } from './outbox.repository'

/**
 * Issue #17: the scheduled report's attachment, behind one small interface. The .xlsx export
 * (the reports issue, #16) plugs in here when it lands: a builder that returns an .xlsx file of
 * the same table; until then every report attaches a CSV.
 */
export interface ReportTable {
  /** File name without extension, e.g. license-usage-2026-W48. */
  name: string
  columns: string[]
  rows: (string | number | null)[][]
}

export interface ReportAttachmentBuilder {
  build(table: ReportTable): Promise<MailFile>
}

/** CSV with the shared cell rules (formula-injection guard, N/A for missing values). */
export const csvReportAttachment: ReportAttachmentBuilder = {
  async build(table) {
    const lines = [csvRow(table.columns), ...table.rows.map((r) => csvRow(r))].join('')
    return {
      filename: `${table.name}.csv`,
      contentType: 'text/csv; charset=utf-8',
      content: Buffer.from('\uFEFF' + lines, 'utf8'),
    }
  },
}
