import { describe, expect, it } from 'vitest'
import { canSeeDemo, isRequestable, LICENSES_RANGE_MESSAGE, toLicenses, unlocksDemo } from './course-requestable'

describe('isRequestable (docs/product-rules.md §4)', () => {
  it.each([
    [true, false, true],
    [true, true, false],
    [false, false, false],
    [false, true, false],
  ])('flagged %s, company has a dispatch %s → %s', (flag, hasDispatch, expected) => {
    expect(isRequestable({ isRequestable: flag }, hasDispatch)).toBe(expected)
  })
})

describe('the demo rule (docs/product-rules.md §2)', () => {
  it.each([
    ['admin', [], true],
    ['client', [], false],
    ['client', ['PENDING'], false],
    ['client', ['PENDING', 'PROCESSED'], true],
    ['client', ['COMPLETED'], true],
    ['sales', [], false],
    ['internal', ['COMPLETED'], true],
  ] as const)('%s with requests %j → %s', (role, statuses, expected) => {
    expect(canSeeDemo(role, statuses)).toBe(expected)
  })

  it('unlocks on PROCESSED and COMPLETED only', () => {
    expect(['PENDING', 'PROCESSED', 'COMPLETED', 'APPROVED'].map(unlocksDemo)).toEqual([false, true, true, false])
  })
})

describe('toLicenses (docs/product-rules.md §5: non-numeric falls back to 1)', () => {
  it.each([
    [3, 3],
    ['7', 7],
    [' 12 ', 12],
    [2.9, 2],
    ['abc', 1],
    ['', 1],
    [null, 1],
    [undefined, 1],
    [{}, 1],
    [Number.NaN, 1],
    [0, null],
    [-1, null],
    ['0', null],
    [1_000_000, 1_000_000],
    [1_000_001, null],
    ['99999999999', null],
    [99_999_999_999, null],
    ['1e11', null],
    ['1e3', 1000],
    [Number.POSITIVE_INFINITY, null],
  ])('%j → %j', (value, expected) => {
    expect(toLicenses(value)).toBe(expected)
  })
})

describe('LICENSES_RANGE_MESSAGE', () => {
  it('names both limits', () => {
    expect(LICENSES_RANGE_MESSAGE).toBe('Licenses must be a whole number from 1 to 1,000,000.')
  })
})
