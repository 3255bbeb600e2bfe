import { describe, expect, it } from 'vitest'
import { prefetch } from './prefetch'

/** A source that records when each page is requested and how far it got. */
function pages(count: number, failAt?: number) {
  const log: string[] = []
  async function* source() {
    try {
      for (let i = 1; i <= count; i += 1) {
        log.push(`fetch ${i}`)
        await new Promise((resolve) => setTimeout(resolve, 1))
        if (i === failAt) throw new Error(`page ${i} failed`)
        yield i
      }
    } finally {
      log.push('closed')
    }
  }
  return { log, source: source() }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('prefetch', () => {
  it('yields every page in order and asks for the next before the current one is processed', async () => {
    const { log, source } = pages(3)
    const seen: number[][] = []
    for await (const batch of prefetch(source)) {
      log.push(`write ${batch.join(',')}`)
      seen.push(batch)
    }
    expect(seen).toEqual([[1], [2], [3]])
    expect(log.indexOf('fetch 2')).toBeLessThan(log.indexOf('write 1'))
    expect(log.indexOf('fetch 3')).toBeLessThan(log.indexOf('write 2'))
    // The read-ahead after page 3 already found the end, so the source closed before page 3 was written.
    expect(log.slice(-2)).toEqual(['closed', 'write 3'])
  })

  it('hands a slow consumer what was read meanwhile, never more than the depth at once', async () => {
    const { source } = pages(12)
    const seen: number[][] = []
    for await (const batch of prefetch(source, 4)) {
      seen.push(batch)
      // Slower than the source: pages pile up while this batch is "written".
      await tick(30)
    }
    expect(seen.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(Math.max(...seen.map((b) => b.length))).toBe(4)
    expect(seen.length).toBeLessThan(12)
  })

  it('hands a fast consumer each page as soon as it arrives', async () => {
    const { source } = pages(5)
    const seen: number[][] = []
    for await (const batch of prefetch(source, 10)) seen.push(batch)
    expect(seen).toEqual([[1], [2], [3], [4], [5]])
  })

  it('surfaces a failed read-ahead once the pages read before it are handed out', async () => {
    const { source } = pages(3, 2)
    const seen: number[][] = []
    await expect(
      (async () => {
        for await (const batch of prefetch(source)) seen.push(batch)
      })(),
    ).rejects.toThrow('page 2 failed')
    expect(seen).toEqual([[1]])
  })

  it('hands out what a slow consumer has not written yet before the failure after it', async () => {
    const { source } = pages(6, 5)
    const seen: number[] = []
    await expect(
      (async () => {
        for await (const batch of prefetch(source, 10)) {
          seen.push(...batch)
          await tick(30)
        }
      })(),
    ).rejects.toThrow('page 5 failed')
    expect(seen).toEqual([1, 2, 3, 4])
  })

  it('closes the source when the consumer stops early, without an unhandled rejection', async () => {
    const { log, source } = pages(5, 2)
    for await (const batch of prefetch(source)) {
      expect(batch).toEqual([1])
      break
    }
    expect(log).toContain('closed')
    expect(log).not.toContain('fetch 3')
  })
})
