import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { exportFile, type ExportTable } from './table-export'

const MB = 1024 * 1024
const ROWS = 30_000
const CHUNK = 2_000

setFlagsFromString('--expose-gc')
/** A full collection (called without options: `{ type: 'major' }` leaves the buffers on Node 20). */
const collectGarbage = runInNewContext('gc') as () => void
setFlagsFromString('--no-expose-gc')

type Row = { n: number }
const table: ExportTable<Row> = {
  name: 'memory',
  sheetName: 'Rows',
  columns: [
    { header: 'First Name' },
    { header: 'Email' },
    { header: 'Score (%)', kind: 'number' },
    { header: 'Last Access', kind: 'date' },
  ],
  cells: (r) => [
    `Learner ${r.n}`,
    `learner.${r.n}@company-${r.n % 97}.example.com`,
    r.n % 100,
    new Date(1.7e12 + r.n * 1000),
  ],
}

describe('xlsx export memory', () => {
  it('keeps about one chunk of sheet XML queued in the zip writer, not the whole sheet', async () => {
    // Buffers still referenced when each chunk is asked for, after a full collection: what the
    // writer holds. Without the wait for the zip entry's drain, the sheet's text (about 400 bytes
    // a row, 12 MB here) piles up in archiver's entry stream while the deflate lags behind.
    let peakHeld = 0
    let before = 0
    async function* chunks() {
      for (let start = 0; start < ROWS; start += CHUNK) {
        collectGarbage()
        const held = process.memoryUsage().arrayBuffers
        if (start === 0) before = held
        peakHeld = Math.max(peakHeld, held - before)
        yield Array.from({ length: CHUNK }, (_, i) => ({ n: start + i }))
      }
    }
    const file = exportFile('xlsx', table, chunks())
    let bytes = 0
    for await (const part of file.body) bytes += (part as Buffer).length
    expect(file.filename).toBe('memory.xlsx')
    expect(bytes).toBeGreaterThan(100_000)
    expect(peakHeld).toBeLessThan(4 * MB)
  }, 60_000)

  it('waits for the zip writer within a chunk too: a 30,000-row chunk never queues its sheet XML', async () => {
    // Sampled between turns of the event loop while the export runs, after a full collection.
    // Written all at once, the chunk's 12 MB of XML would wait in the zip writer for the deflate.
    let peakHeld = 0
    let before = -1
    const sample = () => {
      collectGarbage()
      const held = process.memoryUsage().arrayBuffers
      if (before < 0) before = held
      peakHeld = Math.max(peakHeld, held - before)
    }
    async function* oneChunk() {
      sample()
      yield Array.from({ length: ROWS }, (_, n) => ({ n }))
    }
    // Each sample is timed from the end of the one before: on a slow machine a full collection of
    // the worker's heap can take longer than the pause, and samples on a fixed interval then ran
    // back to back, leaving the export no turn to run in.
    let timer: NodeJS.Timeout | undefined
    const next = () => {
      timer = setTimeout(() => {
        sample()
        next()
      }, 50)
    }
    next()
    let bytes = 0
    try {
      for await (const part of exportFile('xlsx', table, oneChunk()).body) bytes += (part as Buffer).length
    } finally {
      clearTimeout(timer)
    }
    expect(bytes).toBeGreaterThan(100_000)
    expect(peakHeld).toBeLessThan(4 * MB)
  }, 60_000)
})
