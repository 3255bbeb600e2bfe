/**
 * Download names of dispatch packages, `<company> - <course>.zip`, with safe
 * characters only (letters and digits of ASCII, space, `.`, `_`, `-`, `(`, `)`): accents are
 * dropped ("Café" is "Cafe"), anything else becomes a space. The server sends it in
 * Content-Disposition and the browser saves under the same name.
 */
const MAX_PART = 80

export function safeFileNamePart(text: string, fallback: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._()-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    // No hidden files and no trailing dots (Windows drops them).
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, MAX_PART)
    .trim()
  return cleaned || fallback
}

/** One dispatch's package. */
export const packageFileName = (companyName: string, courseTitle: string) =>
  `${safeFileNamePart(companyName, 'company')} - ${safeFileNamePart(courseTitle, 'course')}.zip`

/**
 * Exports, named for what they hold (without the extension, which the format adds):
 * `<company> - <course> - completion report` and `<company> - learners`.
 */
export const reportExportBaseName = (companyName: string, courseTitle: string) =>
  `${safeFileNamePart(companyName, 'company')} - ${safeFileNamePart(courseTitle, 'course')} - completion report`
export const learnersExportBaseName = (companyName: string) => `${safeFileNamePart(companyName, 'company')} - learners`

/** A dispatch's licence history, dated with the day it was exported (yyyy-MM-dd). */
export const historyExportBaseName = (companyName: string, courseTitle: string, day: string) =>
  `${safeFileNamePart(companyName, 'company')} - ${safeFileNamePart(courseTitle, 'course')} - licence history ${day}`
/** A company's usage statement of a month (yyyy-MM) or a year (yyyy). */
export const statementExportBaseName = (companyName: string, period: string) =>
  `${safeFileNamePart(companyName, 'company')} - usage statement ${period}`

/** Every package of a company in one zip. */
export const companyPackagesFileName = (companyName: string) =>
  `${safeFileNamePart(companyName, 'company')} - all packages.zip`
