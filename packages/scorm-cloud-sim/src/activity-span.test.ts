import { describe, expect, it } from 'vitest'
import { resolveOptions, startOfUtcDay } from './options'
import { DAY } from './records'
import { deriveRegistration, type RegState } from './registration-generator'
import { generateWorld, type World } from './world'

/**
 * The generated activity ends at the epoch the generator is given and fills the year before it,
 * so the portal's charts (registrations per month over 12 months, completions per week over 26
 * weeks) show a trend when the epoch is today, as in demo mode.
 */
const EPOCH = '2026-11-27T00:00:00.000Z'

function world(seed: number, epoch: string): World {
  return generateWorld(resolveOptions({ seed, epoch }))
}

function registrations(w: World): RegState[] {
  return Array.from({ length: w.registrationCount }, (_, i) => deriveRegistration(w, i))
}

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7)

/** The 12 months (YYYY-MM) ending with the epoch's month, as the dashboard's chart counts them. */
function lastTwelveMonths(epochMs: number): string[] {
  const end = new Date(epochMs)
  return Array.from({ length: 12 }, (_, i) => month(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11 + i, 1)))
}

describe('generated activity over the year before the epoch', () => {
  const w = world(42, EPOCH)
  const regs = registrations(w)
  const epochMs = Date.parse(EPOCH)

  it('has registrations and completions in every one of the last 12 months, more of them recently', () => {
    const created = new Map<string, number>()
    const completed = new Map<string, number>()
    for (const r of regs) {
      created.set(month(r.createdMs), (created.get(month(r.createdMs)) ?? 0) + 1)
      if (r.completedMs !== null) completed.set(month(r.completedMs), (completed.get(month(r.completedMs)) ?? 0) + 1)
    }
    const months = lastTwelveMonths(epochMs)
    expect(months[0]).toBe('2025-12')
    expect(months[11]).toBe('2026-11')
    for (const m of months) {
      expect(created.get(m) ?? 0, `registrations created in ${m}`).toBeGreaterThanOrEqual(50)
      expect(completed.get(m) ?? 0, `completions in ${m}`).toBeGreaterThanOrEqual(20)
    }
    // Most of the activity lies inside that year, and the recent half is busier (a trend).
    const inYear = months.reduce((sum, m) => sum + (created.get(m) ?? 0), 0)
    expect(inYear / regs.length).toBeGreaterThan(0.9)
    const firstHalf = months.slice(0, 6).reduce((sum, m) => sum + (created.get(m) ?? 0), 0)
    expect(inYear - firstHalf).toBeGreaterThan(firstHalf)
  })

  it('has completions in each of the last 26 weeks, and the demo client’s company in every month', () => {
    const weeks = new Set<number>()
    for (const r of regs) {
      if (r.completedMs !== null && r.completedMs > epochMs - 26 * 7 * DAY)
        weeks.add(Math.floor((epochMs - r.completedMs) / (7 * DAY)))
    }
    expect(weeks.size).toBe(26)

    // The demo client belongs to the first company by name that has dispatches (demo bootstrap).
    const withDispatches = new Set(w.dispatches.map((d) => d.destinationIdx))
    const client = [...w.destinations]
      .filter((d) => withDispatches.has(d.idx))
      .sort((a, b) => a.name.localeCompare(b.name))[0]!
    const clientMonths = new Set(
      regs.filter((r) => w.dispatches[r.dispatchIdx]!.destinationIdx === client.idx).map((r) => month(r.createdMs)),
    )
    for (const m of lastTwelveMonths(epochMs)) expect(clientMonths.has(m), `${client.name} in ${m}`).toBe(true)
  })

  it('puts nothing after the epoch', () => {
    for (const r of regs) {
      for (const t of [r.createdMs, r.updatedMs, r.firstAccessMs, r.lastAccessMs, r.completedMs]) {
        if (t !== null) expect(t).toBeLessThanOrEqual(epochMs)
      }
    }
    for (const record of [...w.courses, ...w.destinations, ...w.dispatches]) {
      expect(record.createdMs).toBeLessThanOrEqual(epochMs)
      expect(record.updatedMs).toBeLessThanOrEqual(epochMs)
    }
  })

  it('is the same for a seed and epoch, another for another seed, and moves with the epoch', () => {
    expect(registrations(world(42, EPOCH))).toEqual(regs)
    const other = registrations(world(43, EPOCH))
    expect(other.map((r) => r.createdMs)).not.toEqual(regs.map((r) => r.createdMs))

    // Ten days later: the same data, every date ten days later.
    const shift = 10 * DAY
    const later = world(42, new Date(epochMs + shift).toISOString())
    const moved = registrations(later)
    expect(moved.map((r) => r.createdMs)).toEqual(regs.map((r) => r.createdMs + shift))
    expect(moved.map((r) => r.completedMs)).toEqual(
      regs.map((r) => (r.completedMs === null ? null : r.completedMs + shift)),
    )
    expect(moved.map((r) => r.completion)).toEqual(regs.map((r) => r.completion))
    expect(later.dispatches.map((d) => d.createdMs)).toEqual(w.dispatches.map((d) => d.createdMs + shift))
  })

  it('ends demo data at the start of the current UTC day', () => {
    expect(startOfUtcDay(Date.parse('2026-11-27T17:18:39.123Z'))).toBe('2026-11-27T00:00:00.000Z')
    expect(startOfUtcDay(Date.parse('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01T00:00:00.000Z')
  })
})
