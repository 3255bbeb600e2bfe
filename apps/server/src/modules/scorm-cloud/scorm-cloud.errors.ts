import { AppError } from '../../lib/app-error'

/**
 * A SCORM Cloud failure: answered to the browser as 502 with the provider's message
 * (docs/product-decisions.md D4, D18), and recorded by a sync run as its error.
 */
export class ScormCloudError extends AppError {
  constructor(
    message: string,
    /** The provider's HTTP status; 0 for a network failure, timeout or open circuit. */
    readonly providerStatus: number,
    readonly retryable: boolean,
  ) {
    super('UPSTREAM_FAILED', message)
  }
}

/** SCORM Cloud answers `{ message }`, or `{ error }` for 401 (docs/scorm-cloud-api.md §1.2). */
export async function providerMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown }
    const message = body.message ?? body.error
    if (typeof message === 'string' && message.trim()) return `SCORM Cloud: ${message.trim()}`
  } catch {
    // not JSON: fall through to the status line
  }
  return `SCORM Cloud answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
}
