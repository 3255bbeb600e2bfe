import {
  HISTORY_EXPORT_COLUMNS,
  historyExportBaseName,
  historyKindLabel,
  historyValueText,
  UPSTREAM_SOURCE_TEXT,
  type DispatchHistoryEntry,
  type DispatchHistoryQuery,
  type DispatchHistoryResponse,
  type ExportFormat,
  type HistoryKind,
} from '@portal/shared'
import { exportFile, readAhead, type ExportFile, type ExportTable } from '../../lib/table-export'
import type { Viewer } from '../../lib/viewer'
import type { DispatchHistoryRepository, HistoryRow } from './dispatch-history.repository'
import type { DispatchesService } from './dispatches.service'
import { scopeCompany } from './dispatches.scope'

/** Rows an export reads per query (a dispatch's history is short; this only bounds memory). */
const EXPORT_PAGE = 1_000

export function toHistoryEntry(row: HistoryRow): DispatchHistoryEntry {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    kind: row.kind as HistoryKind,
    oldValue: row.oldValue,
    newValue: row.newValue,
    countBefore: row.countBefore,
    countAfter: row.countAfter,
    capBefore: row.capBefore,
    capAfter: row.capAfter,
    source: row.actorKind === 'sync' ? 'upstream' : 'portal',
    actor: { kind: row.actorKind, id: row.actorId, label: row.actorLabel, email: row.actorEmail },
  }
}

const historyTable = (name: string): ExportTable<HistoryRow> => ({
  name,
  sheetName: 'Licence history',
  columns: HISTORY_EXPORT_COLUMNS.map((header) => ({
    header,
    kind:
      header === 'Date'
        ? ('date' as const)
        : header.startsWith('Registrations') || header === 'Cap After'
          ? ('number' as const)
          : ('text' as const),
  })),
  cells: (r) => {
    const kind = r.kind as HistoryKind
    return [
      r.occurredAt,
      historyKindLabel(kind),
      r.kind === 'created' ? '' : historyValueText(kind, r.oldValue),
      r.kind === 'created' ? '' : historyValueText(kind, r.newValue),
      r.countBefore,
      r.countAfter,
      r.capAfter,
      r.actorKind === 'sync' ? UPSTREAM_SOURCE_TEXT : 'Portal',
      r.actorLabel,
      r.actorEmail,
    ]
  },
})

/**
 * A dispatch's licence history: the dispatch first (another company's is a 404, as every
 * dispatch route answers), then its rows, read with the viewer's company in the query.
 */
export function createDispatchHistoryService(deps: {
  history: DispatchHistoryRepository
  dispatches: DispatchesService
}) {
  const { history, dispatches } = deps
  return {
    async page(viewer: Viewer, id: string, query: DispatchHistoryQuery): Promise<DispatchHistoryResponse> {
      await dispatches.requireVisible(viewer, id)
      const companyId = scopeCompany(viewer)?.companyId
      const rows = await history.page(id, companyId, query.limit + 1, query.before)
      const entries = rows.slice(0, query.limit).map(toHistoryEntry)
      return { entries, nextBefore: rows.length > query.limit ? entries.at(-1)!.id : null }
    },

    async exportFile(viewer: Viewer, id: string, format: ExportFormat, now = new Date()): Promise<ExportFile> {
      const row = await dispatches.requireVisible(viewer, id)
      const companyId = scopeCompany(viewer)?.companyId
      async function* chunks() {
        let before: number | undefined
        for (;;) {
          const rows = await history.page(id, companyId, EXPORT_PAGE, before)
          if (rows.length > 0) yield rows
          if (rows.length < EXPORT_PAGE) return
          before = rows.at(-1)!.id
        }
      }
      const name = historyExportBaseName(
        row.destinationName || row.destinationId,
        row.courseTitle || row.courseId,
        now.toISOString().slice(0, 10),
      )
      return exportFile(format, historyTable(name), await readAhead(chunks()))
    },
  }
}
export type DispatchHistoryService = ReturnType<typeof createDispatchHistoryService>
