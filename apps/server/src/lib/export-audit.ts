import type { Actor } from './actor'

/**
 * What the report and learner exports record when a download ends: REPORT_EXPORTED with the
 * filters as given, the rows sent and whether all were (an aborted download is recorded too).
 */

/** Who exported, for REPORT_EXPORTED. */
export interface ExportContext {
  actor: Actor | null
  ip: string
}

type Log = { error(obj: unknown, msg: string): void }

/** The activity log's writer, as app.ts hands it to the export services. */
export interface ExportRecorder {
  record(entry: { action: 'REPORT_EXPORTED'; actor: Actor | null; ipAddress: string; details: unknown }): Promise<void>
}

/** The filters as the caller gave them, empty ones left out: what REPORT_EXPORTED records. */
export function givenFilters(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([key, v]) => key !== 'format' && typeof v === 'string' && v.trim() !== '')
      .map(([key, v]) => [key, String(v).trim()]),
  )
}

/** REPORT_EXPORTED with what was sent; a failure to record it is logged, never thrown into the stream. */
export function recordExport(activity: ExportRecorder, log: Log, ctx: ExportContext, details: Record<string, unknown>) {
  return activity
    .record({ action: 'REPORT_EXPORTED', actor: ctx.actor, ipAddress: ctx.ip, details })
    .catch((error: unknown) => log.error({ err: error }, 'could not record REPORT_EXPORTED'))
}

/**
 * Chunks of a table's rows, each read when the stream asks for it; `done` is called when it
 * ends, with the rows sent and whether all were.
 */
export async function* audited<R>(
  read: () => AsyncGenerator<R[]>,
  done: (rowCount: number, completed: boolean) => Promise<unknown>,
): AsyncGenerator<R[]> {
  let rowCount = 0
  let completed = false
  try {
    for await (const chunk of read()) {
      rowCount += chunk.length
      yield chunk
    }
    completed = true
  } finally {
    await done(rowCount, completed)
  }
}
