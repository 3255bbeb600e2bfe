import type { AlertKind } from '../schemas/alerts'

export interface AlertText {
  kind: AlertKind
  level: number
  courseTitle: string
  companyName: string
  registrationCount: number
  registrationCap: number
}

/** The one line an alert reads as, in the bell's panel and as the mail subject. */
export function alertMessage(a: AlertText): string {
  const what = `${a.courseTitle} (${a.companyName})`
  switch (a.kind) {
    case 'usage':
      return a.level >= 100
        ? `License cap reached: ${what} uses ${a.registrationCount} of ${a.registrationCap} licenses`
        : `${a.level}% of licenses used: ${what} uses ${a.registrationCount} of ${a.registrationCap} licenses`
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
