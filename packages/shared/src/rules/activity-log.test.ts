import { describe, expect, it } from 'vitest'
import {
  INVALID_DETAILS,
  LOG_MESSAGES,
  NO_DETAILS,
  NO_LOG_USER,
  isCalendarDay,
  logDateRangeError,
  logDetailsText,
  logUserText,
} from './activity-log'

describe('log user cell (docs/product-rules.md §2)', () => {
  it.each([
    [{ name: 'Ada', email: 'ada@x.test' }, 'Ada (ada@x.test)'],
    [{ name: null, email: 'ada@x.test' }, 'ada@x.test'],
    [{ name: 'Ada', email: null }, 'Ada'],
    [{ name: null, email: null }, NO_LOG_USER],
    [null, NO_LOG_USER],
    [undefined, NO_LOG_USER],
  ])('%j → %s', (user, expected) => {
    expect(logUserText(user)).toBe(expected)
  })
})

describe('log details cell (docs/product-rules.md §3, §8)', () => {
  it.each<[unknown, string]>([
    ['User clicked Need help?', 'User clicked Need help?'],
    [{ pathname: '/courses' }, '{"pathname":"/courses"}'],
    [['a', 1], '["a",1]'],
    [null, NO_DETAILS],
    [undefined, NO_DETAILS],
    ['', NO_DETAILS],
    [42, INVALID_DETAILS],
    [true, INVALID_DETAILS],
  ])('%j → %s', (details, expected) => {
    expect(logDetailsText(details)).toBe(expected)
  })
})

describe('log date range (docs/product-rules.md §5)', () => {
  it.each<[string | undefined, string | undefined, string | null]>([
    [undefined, undefined, null],
    ['2026-03-01', undefined, null],
    [undefined, '2026-03-01', null],
    ['2026-03-01', '2026-03-01', null],
    ['2026-03-01', '2026-03-02', null],
    ['2026-03-02', '2026-03-01', LOG_MESSAGES.endBeforeStart],
    ['2026-02-30', undefined, LOG_MESSAGES.invalidDate],
    [undefined, '03/01/2026', LOG_MESSAGES.invalidDate],
  ])('%s to %s → %s', (start, end, expected) => {
    expect(logDateRangeError(start, end)).toBe(expected)
  })

  it('knows real calendar days', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true)
    expect(isCalendarDay('2026-02-29')).toBe(false)
    expect(isCalendarDay('2026-1-01')).toBe(false)
  })
})
