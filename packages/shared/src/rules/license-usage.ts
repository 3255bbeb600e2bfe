/** docs/product-rules.md §9 usage bar: green up to 70 %, yellow above 70, red above 90; Overused above 100. */
export type UsageColour = 'green' | 'yellow' | 'red'

/** Cap 0 or missing means unlimited (docs/product-rules.md §3). */
export const isUnlimited = (cap: number | null | undefined) => !cap || cap <= 0

/** Rounded percent of capacity used; null when there is no capped capacity. */
export function usagePercent(used: number, capacity: number): number | null {
  if (!capacity || capacity <= 0) return null
  return Math.round((used / capacity) * 100)
}

export function usageColour(percent: number): UsageColour {
  if (percent > 90) return 'red'
  if (percent > 70) return 'yellow'
  return 'green'
}

export const isOverused = (percent: number | null) => percent != null && percent > 100
