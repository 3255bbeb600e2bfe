import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'

const MB = 1024 * 1024
const PACKAGE_BYTES = 50 * MB

let f: ProviderApp
let base: string
beforeAll(async () => {
  f = await providerApp()
  base = await f.t.app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => f.close())

/**
 * A young-generation collection. Chunks that were already sent are garbage; when V8 collects
 * them depends on its heuristics, not on the server, so the measure collects them every few
 * megabytes: what stays is what the server keeps. A server that held the package would keep it.
 */
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void
setFlagsFromString('--no-expose-gc')

/** Downloads through the server, throwing the bytes away, sampling this process's RSS as they come. */
async function download(url: string): Promise<{ bytes: number; length: number; peakRss: number }> {
  const res = await fetch(url, { headers: f.admin })
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`)
  const reader = res.body!.getReader()
  let bytes = 0
  let sinceCollect = 0
  let peakRss = process.memoryUsage.rss()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.length
    sinceCollect += value.length
    if (sinceCollect >= 2 * MB) {
      // Every 2 MB the young generation, every 10 MB all of it (chunks promoted while in flight).
      collectGarbage({ type: bytes % (10 * MB) < 2 * MB ? 'major' : 'minor' })
      sinceCollect = 0
    }
    peakRss = Math.max(peakRss, process.memoryUsage.rss())
  }
  return { bytes, length: Number(res.headers.get('content-length')), peakRss }
}

describe('package downloads stream', () => {
  it('sends a 50 MB package while memory stays flat', async () => {
    const url = `${base}/api/dispatches/${f.ownDispatchId}/package`
    // Warm-up with a small package: code paths and connection pools exist before measuring, and
    // no 50 MB was ever held, so freed memory cannot hide a buffering server from the measure.
    f.sim.setPackagePadding(64 * 1024)
    await download(url)
    f.sim.setPackagePadding(PACKAGE_BYTES)
    collectGarbage({ type: 'major' })
    const before = process.memoryUsage.rss()
    const run = await download(url)
    const growth = run.peakRss - before
    console.log(`50 MB package: RSS before ${(before / MB).toFixed(1)} MB, peak growth ${(growth / MB).toFixed(1)} MB`)
    expect(run.bytes).toBeGreaterThan(PACKAGE_BYTES)
    expect(run.bytes).toBe(run.length)
    expect(growth).toBeLessThan(PACKAGE_BYTES / 2)
  })
})
