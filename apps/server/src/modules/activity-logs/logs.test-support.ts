import type { Db } from '../../db/client'
import { activityLog } from '../../db/schema'

/**
 * A strict RFC 4180 reader for the tests: fields separated by commas, records by CRLF, quoted
 * fields may hold commas, quotes (doubled), CR and LF. Anything else (a bare quote inside an
 * unquoted field, text after a closing quote, a bare LF between records) throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  const fail = (why: string) => {
    throw new Error(`invalid CSV at ${i}: ${why}`)
  }
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i += 1
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field')
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i += 1
          break
        }
        field += text[i]
        i += 1
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote inside an unquoted field')
        field += text[i]
        i += 1
      }
    }
    record.push(field)
    if (text[i] === ',') {
      i += 1
    } else if (text[i] === '\r' && text[i + 1] === '\n') {
      records.push(record)
      record = []
      i += 2
    } else if (i < text.length) {
      fail(`unexpected ${JSON.stringify(text[i])}`)
    }
  }
  if (record.length > 0) fail('last record lacks its CRLF')
  return records
}

/** Counts CSV records in a stream of text chunks without keeping them (quotes tracked across chunks). */
export function createRecordCounter() {
  let inQuotes = false
  let previous = ''
  let records = 0
  return {
    push(chunk: string) {
      for (const c of chunk) {
        if (c === '"') inQuotes = !inQuotes
        else if (c === '\n' && previous === '\r' && !inQuotes) records += 1
        previous = c
      }
    },
    get records() {
      return records
    },
  }
}

export type LogInput = Partial<typeof activityLog.$inferInsert> & { action: string; createdAt: Date }

export async function insertLogs(db: Db, rows: LogInput[]): Promise<void> {
  if (rows.length > 0) await db.insert(activityLog).values(rows)
}
