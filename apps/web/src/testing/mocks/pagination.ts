/**
 * A list answer's pagination that echoes the request's page and pageSize (so tests can follow
 * them), over `totalItems` items.
 */
export function echoedPagination(request: Request, defaultPageSize: number, totalItems: number) {
  const url = new URL(request.url)
  const page = Number(url.searchParams.get('page') ?? 1)
  const pageSize = Number(url.searchParams.get('pageSize') ?? defaultPageSize)
  return { page, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) }
}
