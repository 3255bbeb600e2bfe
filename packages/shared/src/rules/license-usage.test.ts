import { describe, expect, it } from 'vitest'
import { isOverused, isUnlimited, usageColour, usagePercent } from './license-usage'

describe('license usage bar (docs/product-rules.md §9: green ≤ 70, yellow > 70, red > 90, Overused > 100)', () => {
  it.each([
    [0, 'green', false],
    [70, 'green', false],
    [71, 'yellow', false],
    [90, 'yellow', false],
    [91, 'red', false],
    [100, 'red', false],
    [101, 'red', true],
  ] as const)('%i %% → %s, overused %s', (percent, colour, overused) => {
    expect(usageColour(percent)).toBe(colour)
    expect(isOverused(percent)).toBe(overused)
  })

  it('is not overused without a capped capacity', () => {
    expect(isOverused(null)).toBe(false)
  })

  it.each([
    [7, 10, 70],
    [0, 10, 0],
    [2, 3, 67],
    [12, 10, 120],
    [5, 0, null],
  ])('usagePercent(%i, %i) → %s', (used, capacity, expected) => {
    expect(usagePercent(used, capacity)).toBe(expected)
  })

  it.each([
    [0, true],
    [null, true],
    [undefined, true],
    [-1, true],
    [1, false],
  ])('cap %s unlimited: %s', (cap, expected) => {
    expect(isUnlimited(cap)).toBe(expected)
  })
})
