import { describe, expect, it } from 'vitest'
import { alertMessage, isNearCap, NEAR_CAP_PERCENT } from './alerts'

const usage = (level: number, registrationCount: number, registrationCap: number) =>
  alertMessage({
    kind: 'usage',
    level,
    courseTitle: 'Fire Safety',
    companyName: 'Acme',
    registrationCount,
    registrationCap,
  })

describe('alertMessage (usage): what is used and which threshold was crossed', () => {
  it.each([
    [2, 49, 50, '98% of licenses used (threshold 2%): Fire Safety (Acme) uses 49 of 50 licenses'],
    [80, 80, 100, '80% of licenses used (threshold 80%): Fire Safety (Acme) uses 80 of 100 licenses'],
    // rounded down: short of the cap never reads 100 %, and never below the threshold
    [90, 199, 200, '99% of licenses used (threshold 90%): Fire Safety (Acme) uses 199 of 200 licenses'],
    [100, 50, 50, 'License cap reached, 100% used (threshold 100%): Fire Safety (Acme) uses 50 of 50 licenses'],
    [90, 60, 50, 'License cap reached, 120% used (threshold 90%): Fire Safety (Acme) uses 60 of 50 licenses'],
  ])('threshold %i at %i of %i', (level, count, cap, expected) => {
    expect(usage(level, count, cap)).toBe(expected)
  })

  it('leaves the other kinds as they were', () => {
    const base = { courseTitle: 'Fire Safety', companyName: 'Acme', registrationCount: 0, registrationCap: 0 }
    expect(alertMessage({ ...base, kind: 'expiry', level: 7 })).toBe('Expires within 7 days: Fire Safety (Acme)')
    expect(alertMessage({ ...base, kind: 'disabled', level: 0 })).toBe('Disabled upstream: Fire Safety (Acme)')
  })
})

describe('isNearCap', () => {
  it(`is at or past ${NEAR_CAP_PERCENT}% of a cap, never for no cap`, () => {
    expect(isNearCap(31, 100)).toBe(false)
    expect(isNearCap(89, 100)).toBe(false)
    expect(isNearCap(90, 100)).toBe(true)
    expect(isNearCap(120, 100)).toBe(true)
    expect(isNearCap(500, 0)).toBe(false)
  })
})
