import { describe, expect, it } from 'vitest'
import { clampInstant, dayEndExclusive, isStorableInstant } from './input-bounds'

describe('instants every layer holds', () => {
  it('are 1000-01-01 to 9999-12-31 UTC, both ends included', () => {
    expect(isStorableInstant(new Date('1000-01-01T00:00:00.000Z'))).toBe(true)
    expect(isStorableInstant(new Date('9999-12-31T23:59:59.999Z'))).toBe(true)
    expect(isStorableInstant(new Date('0999-12-31T23:59:59.999Z'))).toBe(false)
    expect(isStorableInstant(new Date('+010000-01-01T00:00:00.000Z'))).toBe(false)
    expect(isStorableInstant(new Date(Number.NaN))).toBe(false)
  })

  it('clamps to the nearest end', () => {
    expect(clampInstant(new Date('0000-01-01T00:00:00Z')).toISOString()).toBe('1000-01-01T00:00:00.000Z')
    expect(clampInstant(new Date('+100000-01-01T00:00:00Z')).toISOString()).toBe('9999-12-31T23:59:59.999Z')
    expect(clampInstant(new Date('2026-05-01T00:00:00Z')).toISOString()).toBe('2026-05-01T00:00:00.000Z')
  })

  it('ends a day filter at the next midnight, and the last day without an end', () => {
    expect(dayEndExclusive('2026-02-28')?.toISOString()).toBe('2026-03-01T00:00:00.000Z')
    expect(dayEndExclusive('9999-12-30')?.toISOString()).toBe('9999-12-31T00:00:00.000Z')
    expect(dayEndExclusive('9999-12-31')).toBeNull()
  })
})
