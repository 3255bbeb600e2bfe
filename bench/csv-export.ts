/**
 * The streamed CSV export of about a million log rows, read as a browser download would be:
 * time to the first body byte, rows per second over the whole download, and the growth of the
 * server's RSS while it streams (sampled from /proc every 100 ms).
 */
import { startCpuShare } from './cpu-share'
import { sampleRss, type RssSummary } from './rss-sampler'

export interface ExportResult {
  status: number
  ttfbMs: number
  totalMs: number
  rows: number
  rowsPerSecond: number
  megabytes: number
  rss: RssSummary
  otherCores: number
}

/**
 * `knownRows`: the rows the file holds when they cannot be counted from its bytes (an .xlsx is a
 * zip); a CSV's rows are its lines less the header.
 */
export async function measureExport(
  url: string,
  token: string,
  serverPid: number,
  knownRows?: number,
): Promise<ExportResult> {
  const rss = sampleRss(serverPid)
  const share = startCpuShare()
  const started = performance.now()
  const response = await fetch(url, { headers: { 'x-auth-token': token } })
  let ttfbMs = 0
  let newlines = 0
  let bytes = 0
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (ttfbMs === 0) ttfbMs = performance.now() - started
      bytes += chunk.byteLength
      // Cells are quoted when they hold a newline; our details never do, so lines = rows.
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) newlines += 1
    }
  }
  const totalMs = performance.now() - started
  const memory = rss.stop()
  const { otherCores } = share.stop()
  const rows = knownRows ?? Math.max(0, newlines - 1) // minus the header line
  return {
    status: response.status,
    ttfbMs: Math.round(ttfbMs),
    totalMs: Math.round(totalMs),
    rows,
    rowsPerSecond: Math.round(rows / (totalMs / 1000)),
    megabytes: Math.round(bytes / 1e5) / 10,
    rss: memory,
    otherCores,
  }
}
