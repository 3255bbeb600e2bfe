/**
 * Reads `source` ahead of its consumer, up to `depth` items, and hands out everything read so
 * far in one batch (at least one item, at most `depth`). The next pages of a SCORM Cloud listing
 * download while the current ones are written, and a writer slower than the provider gets
 * several pages at once, so it writes them in one transaction instead of one each; a writer
 * faster than the provider gets one page at a time, as soon as it arrives.
 *
 * The listing stays sequential: one `source.next()` at a time. A failure of the read-ahead
 * surfaces once the items read before it are handed out; when the consumer stops early, the
 * read-ahead under way is awaited (its failure ignored) and the source closed.
 */
export async function* prefetch<T>(source: AsyncGenerator<T>, depth = 1): AsyncGenerator<T[]> {
  const buffer: T[] = []
  let ended = false
  let failure: { error: unknown } | null = null
  let stopping = false
  // Whoever waits (the consumer for items, the reader for room) parks its wake-up here.
  let wakeConsumer: (() => void) | null = null
  let wakeReader: (() => void) | null = null
  const wake = (which: 'consumer' | 'reader') => {
    const fn = which === 'consumer' ? wakeConsumer : wakeReader
    if (which === 'consumer') wakeConsumer = null
    else wakeReader = null
    fn?.()
  }
  const reader = (async () => {
    try {
      while (!stopping) {
        if (buffer.length >= depth) {
          await new Promise<void>((resolve) => (wakeReader = resolve))
          continue
        }
        const result = await source.next()
        if (result.done) return
        buffer.push(result.value)
        wake('consumer')
      }
    } catch (error) {
      failure = { error }
    } finally {
      ended = true
      wake('consumer')
    }
  })()
  let finished = false
  try {
    while (true) {
      if (buffer.length === 0) {
        if (ended) {
          finished = true
          if (failure) throw (failure as { error: unknown }).error
          return
        }
        await new Promise<void>((resolve) => (wakeConsumer = resolve))
        continue
      }
      const batch = buffer.splice(0, depth)
      wake('reader')
      yield batch
    }
  } finally {
    stopping = true
    wake('reader')
    await reader
    if (!finished) await source.return(undefined as never).catch(() => undefined)
  }
}
