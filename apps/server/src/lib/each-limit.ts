/**
 * Runs `work` over `items` with at most `limit` at a time. After the first failure no new item
 * starts; the ones running finish, then that failure is thrown.
 */
export async function eachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T
      try {
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw (failure as { error: unknown }).error
}
