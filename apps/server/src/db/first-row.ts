/** The first row a query finds, or null when it finds none; the query is read with LIMIT 1. */
export async function firstRow<T>(query: { limit(count: number): PromiseLike<T[]> }): Promise<T | null> {
  const [row] = await query.limit(1)
  return row ?? null
}
