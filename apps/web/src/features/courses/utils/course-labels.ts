import { DEFAULT_COURSE_VERSION } from '@portal/shared'

/**
 * The version badge reads as a release ("1.0", "2.0"), not the provider's revision.
 * SCORM Cloud counts a course's uploads from 0, so revision n is release n + 1; a version that
 * is already written as a release ("2.3") is kept, and none at all is the product rules' 1.0.
 */
export function courseVersionLabel(version: string | null | undefined): string {
  const value = (version ?? '').trim()
  if (!value) return DEFAULT_COURSE_VERSION
  if (/^\d+$/.test(value)) return `${Number(value) + 1}.0`
  return value
}

/** Hosting applications the portal knows by name; any other app shows its id (the product rules' App {appSource}). */
const APP_NAMES: Record<string, string> = {
  // The SCORM Cloud simulator's default application (demo mode).
  'sim-app': 'Demo Library',
}

export const appSourceName = (appSource: string) => APP_NAMES[appSource] ?? appSource
