import { csvRow } from '@portal/shared'
import { xlsxBuffer } from '../../lib/table-export'
import type { MailFile } from './outbox.repository'

/** The file name start of a client's completion summary (scheduled-mails.ts). */
export const COMPLETION_SUMMARY = 'completion-summary-'

/**
 * The scheduled report's attachment, behind one small interface. A
 * client's completion summary is attached as .xlsx (defaultReportAttachment), the others as CSV.
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

/** The same table as an .xlsx workbook (the exports' streaming writer; numbers stay numbers). */
export const xlsxReportAttachment: ReportAttachmentBuilder = {
  async build(table) {
    const sheet = {
      name: table.name,
      sheetName: 'Report',
      columns: table.columns.map((header) => ({ header })),
      cells: (row: (string | number | null)[]) => row,
    }
    return {
      filename: `${table.name}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      content: await xlsxBuffer(sheet, table.rows),
    }
  },
}

/** The default: a client's completion summary as .xlsx, the other reports as CSV. */
export const defaultReportAttachment: ReportAttachmentBuilder = {
  build: (table) =>
    table.name.startsWith(COMPLETION_SUMMARY) ? xlsxReportAttachment.build(table) : csvReportAttachment.build(table),
}
