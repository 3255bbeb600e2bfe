import type { UiAction } from '@portal/shared'
import type { LogActionBody } from '@/types/api'
import { sendActivityEvent } from './activity-queue'

/** POST /api/logs/action, fire-and-forget. Only UI events (docs/product-decisions.md D14); the server stamps user and IP. */
export function logAction(action: UiAction, details?: LogActionBody['details']): Promise<void> {
  return sendActivityEvent({ kind: 'action', body: details === undefined ? { action } : { action, details } })
}
