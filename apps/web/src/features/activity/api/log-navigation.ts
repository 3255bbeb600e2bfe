import { sendActivityEvent } from './activity-queue'

/** POST /api/logs/navigation, fire-and-forget (docs/product-rules.md §7). */
export function logNavigation(pathname: string): Promise<void> {
  return sendActivityEvent({ kind: 'navigation', body: { pathname } })
}
