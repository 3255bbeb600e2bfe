/** docs/product-rules.md §5 / §8: the text for a login or refresh response that lacks a token or the user. */
export const INVALID_SERVER_RESPONSE = 'Invalid server response'

type ApiErrorInit = {
  status: number
  code?: string | undefined
  serverMessage?: string | undefined
  retryAfterSeconds?: number | undefined
  message?: string
  body?: Record<string, unknown> | undefined
}

/** Every failed call becomes one of these (docs/architecture.md §6). status 0 means the network failed. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly status: number
  readonly code: string | undefined
  /** The server's own `message`: screens show it first (docs/product-rules.md §8). */
  readonly serverMessage: string | undefined
  readonly retryAfterSeconds: number | undefined
  /** The error's JSON body, for fields a screen needs beyond the message (e.g. a 409's dispatchId). */
  readonly body: Record<string, unknown>

  constructor(init: ApiErrorInit) {
    super(init.serverMessage ?? init.message ?? `Request failed with status ${init.status}`)
    this.status = init.status
    this.code = init.code
    this.serverMessage = init.serverMessage
    this.retryAfterSeconds = init.retryAfterSeconds
    this.body = init.body ?? {}
  }
}

export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError'
  constructor() {
    super(INVALID_SERVER_RESPONSE)
  }
}

/** docs/product-rules.md §8: "a server message is used first where present", else the screen's own text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage
  if (error instanceof InvalidResponseError) return error.message
  return fallback
}

/** 4xx answers will not change on a retry (408 and 429 are about timing, so they may). */
export function isClientError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  )
}

/** The existing dispatch a 409 names (one dispatch per course and company), if any. */
export function conflictDispatchId(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null
  const id = error.body.dispatchId
  return typeof id === 'string' && id ? id : null
}
