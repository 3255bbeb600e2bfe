import { ErrorResponseSchema } from '@portal/shared'

/** A route's error answers for its OpenAPI schema: each status the shared error shape. */
export function errorResponses<const C extends number>(...codes: C[]) {
  return Object.fromEntries(codes.map((code) => [code, ErrorResponseSchema])) as Record<C, typeof ErrorResponseSchema>
}

/** A signed-in request's usual error answers: bad input, not signed in, not allowed, not found. */
export const requestErrors = errorResponses(400, 401, 403, 404)
