import { describe, expect, it } from 'vitest'
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatRegistrations,
  formatScore,
  toDateInputValue,
} from './format'

describe('formatDuration (whole seconds; docs/product-decisions.md D25: no "under 10 is minutes")', () => {
  it.each([
    [0, '0s'],
    [5, '5s'],
    [45, '45s'],
    [60, '1m 0s'],
    [125, '2m 5s'],
    [3600, '1h 0m 0s'],
    [3723, '1h 2m 3s'],
    [90_061, '25h 1m 1s'],
    [59.9, '59s'],
    [-3, '0s'],
    [Number.NaN, '0s'],
    [Number.POSITIVE_INFINITY, '0s'],
    [null, '0s'],
    [undefined, '0s'],
  ])('%s → %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected)
  })
})

describe('formatScore (docs/product-rules.md §2: 0..1 is scaled by 100)', () => {
  it.each([
    [0.85, '85%'],
    [0, '0%'],
    [1, '100%'],
    [0.005, '1%'],
    [0.333, '33%'],
    [85, '85%'],
    [null, '-'],
    [undefined, '-'],
    [Number.NaN, '-'],
  ])('%s → %s', (score, expected) => {
    expect(formatScore(score)).toBe(expected)
  })
})

describe('formatDate / formatDateTime (docs/product-rules.md §8: unparseable or missing → N/A)', () => {
  it.each([
    ['2026-03-05T14:30:00.000Z', '2026-03-05', '2026-03-05 14:30'],
    ['2026-12-31T23:59:00Z', '2026-12-31', '2026-12-31 23:59'],
    ['2026-01-01T00:05:00Z', '2026-01-01', '2026-01-01 00:05'],
    ['not a date', 'N/A', 'N/A'],
    ['', 'N/A', 'N/A'],
    [null, 'N/A', 'N/A'],
    [undefined, 'N/A', 'N/A'],
  ])('%s → %s / %s', (value, date, dateTime) => {
    expect(formatDate(value, 'UTC')).toBe(date)
    expect(formatDateTime(value, 'UTC')).toBe(dateTime)
  })

  it('shows a bare calendar day as that day in any time zone', () => {
    expect(formatDate('2026-06-30', 'America/Los_Angeles')).toBe('2026-06-30')
    expect(formatDate('2026-06-30', 'Pacific/Kiritimati')).toBe('2026-06-30')
    expect(formatDateTime('2026-06-30', 'America/Los_Angeles')).toBe('2026-06-30')
  })

  it('converts a date-time to the viewer’s zone', () => {
    expect(formatDateTime('2026-03-05T14:30:00.000Z', 'Europe/Berlin')).toBe('2026-03-05 15:30')
  })
})

describe('toDateInputValue', () => {
  it.each([
    ['2026-03-31', '2026-03-31'],
    ['2026-03-31T00:00:00.000Z', '2026-03-31'],
    ['garbage', ''],
    [null, ''],
    [undefined, ''],
  ])('%s → %j', (value, expected) => {
    expect(toDateInputValue(value)).toBe(expected)
  })
})

describe('formatRegistrations (docs/product-rules.md §2: count / cap, ∞ without a cap)', () => {
  it.each([
    [3, 10, '3 / 10'],
    [0, 5, '0 / 5'],
    [12, 0, '12 / ∞'],
    [4, null, '4 / ∞'],
    [4, undefined, '4 / ∞'],
  ])('%i, %s → %s', (count, cap, expected) => {
    expect(formatRegistrations(count, cap)).toBe(expected)
  })
})
