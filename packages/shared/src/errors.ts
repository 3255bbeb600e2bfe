/** docs/architecture.md §6 / docs/product-decisions.md D18: error codes and their HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  RULE_VIOLATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UPSTREAM_FAILED: 502,
  NOT_READY: 503,
} as const
export type ErrorCode = keyof typeof ERROR_STATUS
