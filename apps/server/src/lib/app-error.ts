import { ERROR_STATUS, type ErrorCode } from '@portal/shared'

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'The request is not valid.',
  RULE_VIOLATION: 'The request breaks a rule.',
  UNAUTHENTICATED: 'Authentication required.',
  FORBIDDEN: 'You do not have permission to do this.',
  NOT_FOUND: 'Not found.',
  CONFLICT: 'The request conflicts with the current state.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please try again later.',
  INTERNAL: 'Something went wrong. Please try again.',
  UPSTREAM_FAILED: 'The course host did not answer as expected.',
  NOT_READY: 'The service is not ready. Please try again shortly.',
}

/** Services throw this; the error handler turns it into `{ code, message }` with its status. */
export class AppError extends Error {
  readonly statusCode: number

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: { retryAfterSeconds?: number; details?: { field: string; message: string }[] } = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code])
    this.statusCode = ERROR_STATUS[code]
  }
}

export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message)
