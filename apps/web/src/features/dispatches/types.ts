import type { ReactNode } from 'react'

/**
 * Badges after a row's course ("Near cap", "Expires soon"), supplied by the app from
 * the alerts feature (features never import each other). Given the page's ids, so one request
 * serves the page.
 */
export type RowBadges = (dispatchId: string, pageIds: string[]) => ReactNode
