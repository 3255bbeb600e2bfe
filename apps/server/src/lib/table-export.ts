import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { csvRow, type ExportFormat } from '@portal/shared'

/**
 * A table streamed as CSV or .xlsx from chunks read one after the other (keyset
 * pages), shared by the completion report and learner exports. Memory stays flat at any size:
 * a chunk is read only when the response has room for it (backpressure), and the .xlsx is
 * written by exceljs's streaming WorkbookWriter (rows committed as they are added).
 */
export type ExportCell = string | number | Date | null

export interface ExportColumn {
  header: string
  /** Dates are real Excel dates in the .xlsx (ISO 8601 text in the CSV). */
  kind?: 'text' | 'number' | 'date'
  width?: number
}

export interface ExportTable<R> {
  /** File name without its extension. */
  name: string
  sheetName: string
  columns: readonly ExportColumn[]
  cells(row: R): ExportCell[]
}

export interface ExportFile {
  filename: string
  contentType: string
  body: Readable
}

/** Rows per chunk of a streamed export: about 300 kB of text, as the logs export reads. */
export const EXPORT_CHUNK_ROWS = 2_000

/**
 * Rows per chunk of an .xlsx export. exceljs writes about 15,000 rows a second, so a chunk of
 * 2,000 lived through several young-generation collections while it was written and was
 * promoted: the old generation grew by the whole file's rows before a full collection. A chunk
 * of 250 dies young, and with the keyset chunks no slower to read, costs no time
 * (docs/performance.md has the memory figures).
 */
export const XLSX_CHUNK_ROWS = 250

/** The chunk size an export of `format` reads. */
export const exportChunkRows = (format: ExportFormat) => (format === 'xlsx' ? XLSX_CHUNK_ROWS : EXPORT_CHUNK_ROWS)

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}
const EXCEL_DATE = 'yyyy-mm-dd hh:mm:ss'

/**
 * `first` values of `source` read now, then the rest as it is pulled: a query the filters break
 * fails before the answer starts (a JSON error, not a file cut short). The source's `finally`
 * always runs, also for a download aborted early (the logs export).
 */
export async function readAhead<T>(source: AsyncGenerator<T>, first = 1): Promise<AsyncGenerator<T>> {
  const head: T[] = []
  try {
    for (let i = 0; i < first; i += 1) {
      const next = await source.next()
      if (next.done) break
      head.push(next.value)
    }
  } catch (error) {
    await source.return(undefined)
    throw error
  }
  async function* all() {
    try {
      yield* head
      yield* source
    } finally {
      await source.return(undefined)
    }
  }
  return all()
}

/** Text pieces as a byte stream that holds about one chunk ahead of the client (backpressure). */
export const textStream = (pieces: AsyncIterable<string>) =>
  Readable.from(pieces, { objectMode: false, highWaterMark: 64 * 1024 })

const csvText = (cell: ExportCell) => (cell instanceof Date ? cell.toISOString() : cell)

async function* csvPieces<R>(table: ExportTable<R>, chunks: AsyncIterable<R[]>) {
  // A byte order mark: Excel opens a UTF-8 CSV as UTF-8 only with it.
  yield '\uFEFF' + csvRow(table.columns.map((c) => c.header))
  for await (const chunk of chunks) {
    let text = ''
    for (const row of chunk) text += csvRow(table.cells(row).map(csvText))
    yield text
  }
}

/** Resolves at the stream's next drain, close or error, and leaves no listener behind. */
function nextDrain(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) stream.off(event, done)
      resolve()
    }
    for (const event of ['drain', 'close', 'error']) stream.on(event, done)
  })
}

/**
 * Waits while the response is full (the zip writer's pipe into `out` waits for its drain), or
 * throws when it is gone: the reading stops, and the chunks' `finally` records the abort.
 */
async function room(out: PassThrough) {
  while (out.writableNeedDrain && !out.destroyed) await nextDrain(out)
  if (out.destroyed) throw new Error('export stream closed')
}

/** The part of a (readable-stream 2) writable's state that says it is full. */
type QueuedWritable = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean; destroyed?: boolean } }

/**
 * Waits while the zip writer holds more of the sheet's XML than its buffer. exceljs's sheet
 * stream (a StreamBuf) writes into archiver's entry stream without heeding its answer, and the
 * deflate behind it runs on the thread pool, a buffer per turn of the event loop: while rows
 * kept coming, most of the sheet's text queued there (most of the export's memory growth).
 * Waiting for that stream's drain after each chunk keeps about one chunk queued.
 */
async function zipRoom(sheet: unknown) {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes
  if (!Array.isArray(pipes)) return
  for (const pipe of pipes as QueuedWritable[]) {
    while (pipe._writableState?.needDrain && !pipe._writableState.destroyed) await nextDrain(pipe)
  }
}

/**
 * Rows of sheet XML (about 35 kB) written between two waits for the zip writer. Buffers that
 * queue in it across the collections of a whole chunk's garbage outlive the young generation and
 * are freed only by a full collection: waiting every 50 rows rather than every 2,000 keeps a
 * large export's memory growth well lower (bench/results/history.md, "sixth pass").
 */
export const XLSX_DRAIN_ROWS = 50

/** The .xlsx: one sheet, a bold header row, typed cells (numbers, dates, text that is never a formula). */
function xlsxStream<R>(table: ExportTable<R>, chunks: AsyncIterable<R[]>): Readable {
  const out = new PassThrough({ highWaterMark: 256 * 1024 })
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet(table.sheetName)
  sheet.columns = table.columns.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width ?? (c.kind === 'date' ? 20 : Math.max(12, c.header.length + 2)),
    ...(c.kind === 'date' ? { style: { numFmt: EXCEL_DATE } } : {}),
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  const dates = table.columns.flatMap((c, i) => (c.kind === 'date' ? [i + 1] : []))
  void (async () => {
    try {
      for await (const chunk of chunks) {
        for (let i = 0; i < chunk.length; i += 1) {
          // Strings are written as strings (inline text): a cell starting with = is text, not a formula.
          const row = sheet.addRow(table.cells(chunk[i]!))
          for (const col of dates) row.getCell(col).numFmt = EXCEL_DATE
          row.commit()
          if (i % XLSX_DRAIN_ROWS === XLSX_DRAIN_ROWS - 1) await zipRoom(sheet)
        }
        await room(out)
        await zipRoom(sheet)
      }
      sheet.commit()
      await workbook.commit()
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)))
    }
  })()
  return out
}

/** The export as a file: its name, type and streamed body. Read the first chunk before calling. */
export function exportFile<R>(format: ExportFormat, table: ExportTable<R>, chunks: AsyncGenerator<R[]>): ExportFile {
  return {
    filename: `${table.name}.${format}`,
    contentType: CONTENT_TYPES[format],
    body: format === 'xlsx' ? xlsxStream(table, chunks) : textStream(csvPieces(table, chunks)),
  }
}

/** An .xlsx of a table held in memory (the scheduled mails' attachment). */
export async function xlsxBuffer(table: ExportTable<ExportCell[]>, rows: ExportCell[][]): Promise<Buffer> {
  async function* one() {
    yield rows
  }
  const parts: Buffer[] = []
  for await (const part of xlsxStream(table, one())) parts.push(part as Buffer)
  return Buffer.concat(parts)
}
