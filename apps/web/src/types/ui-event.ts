import type { UiAction } from '@portal/shared'

/**
 * Records a UI event (POST /api/logs/action). Features do not import each other, so the route
 * passes the activity feature's sender in.
 */
export type UiEventHandler = (action: UiAction, details?: Record<string, unknown>) => void
