import { can, usagePercent, type Dispatch, type DispatchSummary, type Role } from '@portal/shared'
import type { KeptRegistrationStats } from '../../db/dispatch-stats'

/** A mirror dispatch row as the repository selects it (with its course's app source). */
export interface DispatchRow {
  id: string
  courseId: string
  courseTitle: string
  destinationId: string
  destinationName: string
  enabled: boolean
  registrationCount: number
  registrationCap: number
  expirationDate: Date | null
  tags: string[]
  notes: string
  providerCreated: Date | null
  providerUpdated: Date | null
  appSource: string | null
  /** Last registration counter reset (issue #15). */
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

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/**
 * The one place a dispatch row becomes the SPEC §3 dispatch; tags and notes only for admin and
 * internal, the app source only for admin (SPEC §6).
 */
export function toDispatch(row: DispatchRow, role: Role): Dispatch {
  const dispatch: Dispatch = {
    id: row.id,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    destinationId: row.destinationId,
    destinationName: row.destinationName,
    enabled: row.enabled,
    registrationCount: row.registrationCount,
    registrationCap: row.registrationCap,
    created: iso(row.providerCreated),
    updated: iso(row.providerUpdated),
    expirationDate: iso(row.expirationDate),
    registrationResetDate: iso(row.registrationResetDate ?? null),
  }
  if (can(role, 'course.readAppSource')) dispatch.appSource = row.appSource
  // SPEC §6: the keys are left out, not emptied, so sales and clients cannot tell "no tags" apart.
  if (can(role, 'dispatch.readNotes')) {
    dispatch.tags = row.tags
    dispatch.notes = row.notes
  }
  return dispatch
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
  // SPEC §6: the active registration count is for admin, internal and sales (as the count endpoint).
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
