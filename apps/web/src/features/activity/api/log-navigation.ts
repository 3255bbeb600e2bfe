import { sendActivityEvent } from './activity-queue'

/** POST /api/logs/navigation, fire-and-forget (SPEC §7). */
export function logNavigation(pathname: string): Promise<void> {
  return sendActivityEvent({ kind: 'navigation', body: { pathname } })
}
