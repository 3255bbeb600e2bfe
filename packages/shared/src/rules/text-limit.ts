/**
 * Limits of free-text fields, counted the way the server's schema counts them: Ajv's
 * `maxLength` counts Unicode code points, so an emoji is one character here too. Forms show
 * the count against the limit and refuse past it, instead of cutting the text.
 */

const numbers = new Intl.NumberFormat('en-US')

/** Characters as the server counts them (code points, not UTF-16 units). */
export function textLength(text: string): number {
  let n = 0
  for (const _ of text) n += 1
  return n
}

/** "4,980 / 5,000". */
export function limitCounter(text: string, limit: number): string {
  return `${numbers.format(textLength(text))} / ${numbers.format(limit)}`
}

/** Null within the limit; else "Notes can be at most 5,000 characters (12,000 entered)." */
export function tooLongMessage(label: string, text: string, limit: number): string | null {
  const length = textLength(text)
  if (length <= limit) return null
  return `${label} can be at most ${numbers.format(limit)} characters (${numbers.format(length)} entered).`
}
