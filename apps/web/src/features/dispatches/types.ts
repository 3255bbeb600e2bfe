import type { ReactNode } from 'react'
import type { UiAction } from '@portal/shared'

/**
 * Records a UI event (POST /api/logs/action). Features do not import each other, so the
 * route passes the activity feature's sender in.
 */
export type UiEventHandler = (action: UiAction, details?: Record<string, unknown>) => void

/**
 * Issue #17: badges after a row's course ("Near cap", "Expires soon"), supplied by the app from
 * the alerts feature (features never import each other). Given the page's ids, so one request
 * serves the page.
 */
export type RowBadges = (dispatchId: string, pageIds: string[]) => ReactNode
