import { ownCompanyOnly } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { Viewer } from '../../lib/viewer'
import type { Actor } from '../activity-logs/activity.repository'

/** A client reaches its own company only; another company's id answers 404, as for its dispatches. */
export function requireCompanyVisible(viewer: Viewer, companyId: string): void {
  if (ownCompanyOnly(viewer.role) && viewer.companyId !== companyId)
    throw new AppError('NOT_FOUND', 'Company not found.')
}

/** Who asks, for scoping and for the activity log. */
export interface DeliveryContext {
  viewer: Viewer
  actor: Actor | null
  ip: string
}
