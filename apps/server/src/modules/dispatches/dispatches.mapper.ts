import { can, usagePercent, type Dispatch, type DispatchSummary, type Role } from '@portal/shared'
import type { KeptRegistrationStats } from '../../db/dispatch-stats'
import { dispatchFields } from './dispatches.fields'

/** A dispatch's own fields, alike in the mirror and in SCORM Cloud's answers (sync/sync.mapper.ts). */
export interface DispatchFields {
  id: string
  courseId: string
  destinationId: string
  enabled: boolean
  registrationCount: number
  registrationCap: number
  expirationDate: Date | null
  tags: string[]
  notes: string
  providerCreated: Date | null
  providerUpdated: Date | null
}

/** A mirror dispatch row as the repository selects it (with its course's app source). */
export interface DispatchRow extends DispatchFields {
  courseTitle: string
  destinationName: string
  appSource: string | null
  /** Last registration counter reset. */
  registrationResetDate?: Date | null
  /** Single-dispatch reads only: the version of its registrations (migration 0007). */
  registrationVersion?: number
  /**
   * Single-dispatch reads only: the counts migration 0008's triggers keep for it (null before
   * its first registration), so the completion report needs no statement of its own for them.
   */
  registrationStats?: KeptRegistrationStats | null
}

export interface SummaryRow {
  totalDispatches: number
  activeDispatches: number
  registrations: number
  cappedRegistrations: number
  cappedCapacity: number
  unlimitedActive: number
  activeRegistrations: number
}

/**
 * The one place a dispatch row becomes the docs/product-rules.md §3 dispatch: the keys and values dispatchFields
 * declares for the role (tags and notes only for admin and internal, the app source only for
 * admin: docs/product-rules.md §6), as the list's JSON rows give them.
 */
export function toDispatch(row: DispatchRow, role: Role): Dispatch {
  return dispatchFields.toObject(row, role)
}

export function toSummary(row: SummaryRow, role: Role): DispatchSummary {
  const summary: DispatchSummary = {
    totalDispatches: row.totalDispatches,
    activeDispatches: row.activeDispatches,
    registrations: row.registrations,
    cappedRegistrations: row.cappedRegistrations,
    cappedCapacity: row.cappedCapacity,
    usagePercent: usagePercent(row.cappedRegistrations, row.cappedCapacity),
    unlimitedActive: row.unlimitedActive,
  }
  // docs/product-rules.md §6: the active registration count is for admin, internal and sales (as the count endpoint).
  if (can(role, 'report.readCount')) summary.activeRegistrations = row.activeRegistrations
  return summary
}

export const EMPTY_SUMMARY: SummaryRow = {
  totalDispatches: 0,
  activeDispatches: 0,
  registrations: 0,
  cappedRegistrations: 0,
  cappedCapacity: 0,
  unlimitedActive: 0,
  activeRegistrations: 0,
}
