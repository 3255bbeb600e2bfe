import type { ReactNode } from 'react'

/**
 * Badges after a row's course ("Near cap", "Expires soon"), supplied by the app from
 * the alerts feature (features never import each other). Given the page's ids, so one request
 * serves the page.
 */
export type RowBadges = (dispatchId: string, pageIds: string[]) => ReactNode

/**
 * The dispatches a staff member selected in the list: some by id (checkboxes on the page), or
 * all the list's filter matches. Handed to the bulk actions the app supplies (features never
 * import each other).
 */
export interface DispatchSelection {
  dispatchIds: string[] | null
  filter: { search?: string; status?: 'enabled' | 'disabled' } | null
  count: number
  clear(): void
}
export type BulkSlot = (selection: DispatchSelection) => ReactNode
