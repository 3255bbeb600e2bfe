/**
 * Splits an integer total over buckets in proportion to weights (largest remainder), with
 * optional per-bucket caps. Exact sums matter: dispatch counts and registration ranges
 * must add up to the configured sizes.
 */
export function allocate(total: number, weights: readonly number[], cap = Number.POSITIVE_INFINITY): number[] {
  const n = weights.length
  if (n === 0) {
    if (total > 0) throw new Error('cannot allocate to zero buckets')
    return []
  }
  if (total > cap * n) throw new Error(`cannot allocate ${total} into ${n} buckets of at most ${cap}`)
  const sum = weights.reduce((a, w) => a + w, 0)
  const safe = sum > 0 ? weights : weights.map(() => 1)
  const safeSum = sum > 0 ? sum : n
  const out = new Array<number>(n)
  const remainders: Array<[number, number]> = []
  let assigned = 0
  for (let i = 0; i < n; i++) {
    const ideal = (total * (safe[i] ?? 0)) / safeSum
    const whole = Math.min(cap, Math.floor(ideal))
    out[i] = whole
    assigned += whole
    remainders.push([ideal - whole, i])
  }
  // Highest remainder first; index as tie-breaker keeps the result deterministic.
  remainders.sort((a, b) => b[0] - a[0] || a[1] - b[1])
  let left = total - assigned
  while (left > 0) {
    let progressed = false
    for (const [, i] of remainders) {
      if (left === 0) break
      if ((out[i] ?? 0) < cap) {
        out[i] = (out[i] ?? 0) + 1
        left--
        progressed = true
      }
    }
    if (!progressed) throw new Error('allocation did not converge')
  }
  return out
}
