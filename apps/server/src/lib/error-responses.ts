import { ErrorResponseSchema } from '@portal/shared'

/** A route's error answers for its OpenAPI schema: each status the shared error shape. */
export function errorResponses<const C extends number>(...codes: C[]) {
  return Object.fromEntries(codes.map((code) => [code, ErrorResponseSchema])) as Record<C, typeof ErrorResponseSchema>
}
