/**
 * Yields what `source` yields, asking it for the next item as soon as the current one is handed
 * out, so the next page of a SCORM Cloud listing downloads while the current one is written
 *. At most one item is read ahead. A failure of the read-ahead surfaces on the next
 * iteration, as it would without it; when the consumer stops early, the read-ahead is awaited
 * (its failure ignored) and the source closed.
 */
export async function* prefetch<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let next: Promise<IteratorResult<T>> | null = source.next()
  let finished = false
  try {
    while (true) {
      const result: IteratorResult<T> = await next!
      if (result.done) {
        finished = true
        return
      }
      next = source.next()
      // Handled here so an early stop never leaves an unhandled rejection behind.
      next.catch(() => undefined)
      yield result.value
    }
  } finally {
    if (!finished) {
      await next?.catch(() => undefined)
      await source.return(undefined as never).catch(() => undefined)
    }
  }
}
