import type { AlertKind } from '../schemas/alerts'

export interface AlertText {
  kind: AlertKind
  level: number
  courseTitle: string
  companyName: string
  registrationCount: number
  registrationCap: number
}

/**
 * "Near cap" on the dashboard: a capped dispatch whose registrations reach this share of the cap
 * (where the usage bar turns red), whatever thresholds raise alerts. A threshold is the admin's
 * choice of when to be told; it says nothing about how near the cap a dispatch is.
 */
export const NEAR_CAP_PERCENT = 90

/** True when the dispatch is at or past NEAR_CAP_PERCENT of its cap (never for no cap). */
export const isNearCap = (count: number, cap: number) => cap > 0 && count * 100 >= NEAR_CAP_PERCENT * cap

/**
 * Percent of the cap used, rounded down: a crossing of threshold T (count × 100 ≥ T × cap)
 * never reads below T, and a dispatch short of its cap never reads 100 %.
 */
export const usedPercent = (count: number, cap: number) => Math.floor((count * 100) / cap)

/**
 * The one line an alert reads as, in the bell's panel and as the mail subject. A usage alert
 * says both what is used and which threshold it crossed: "98% of licenses used (threshold 2%)".
 */
export function alertMessage(a: AlertText): string {
  const what = `${a.courseTitle} (${a.companyName})`
  switch (a.kind) {
    case 'usage': {
      const threshold = `(threshold ${a.level}%)`
      if (a.registrationCap <= 0) return `Licenses used ${threshold}: ${what} uses ${a.registrationCount} licenses`
      const used = `${what} uses ${a.registrationCount} of ${a.registrationCap} licenses`
      const percent = usedPercent(a.registrationCount, a.registrationCap)
      return a.registrationCount >= a.registrationCap
        ? `License cap reached, ${percent}% used ${threshold}: ${used}`
        : `${percent}% of licenses used ${threshold}: ${used}`
    }
    case 'expiry':
      if (a.level === 0) return `Expires today: ${what}`
      return `Expires within ${a.level} day${a.level === 1 ? '' : 's'}: ${what}`
    case 'disabled':
      return `Disabled upstream: ${what}`
    case 'removed':
      return `Removed upstream: ${what}`
  }
}

/** Sorted, distinct threshold lists as stored. */
export const normaliseLevels = (levels: readonly number[]) => [...new Set(levels)].sort((a, b) => a - b)
