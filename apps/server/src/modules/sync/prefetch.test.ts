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

describe('prefetch', () => {
  it('yields every page in order and asks for the next before the current one is processed', async () => {
    const { log, source } = pages(3)
    const seen: number[] = []
    for await (const page of prefetch(source)) {
      log.push(`write ${page}`)
      seen.push(page)
    }
    expect(seen).toEqual([1, 2, 3])
    expect(log.indexOf('fetch 2')).toBeLessThan(log.indexOf('write 1'))
    expect(log.indexOf('fetch 3')).toBeLessThan(log.indexOf('write 2'))
    // The read-ahead after page 3 already found the end, so the source closed before page 3 was written.
    expect(log.slice(-2)).toEqual(['closed', 'write 3'])
  })

  it('surfaces a failed read-ahead on the next iteration', async () => {
    const { source } = pages(3, 2)
    const seen: number[] = []
    await expect(
      (async () => {
        for await (const page of prefetch(source)) seen.push(page)
      })(),
    ).rejects.toThrow('page 2 failed')
    expect(seen).toEqual([1])
  })

  it('closes the source when the consumer stops early, without an unhandled rejection', async () => {
    const { log, source } = pages(5, 2)
    for await (const page of prefetch(source)) {
      expect(page).toBe(1)
      break
    }
    expect(log).toContain('closed')
    expect(log).not.toContain('fetch 3')
  })
})
