import { describe, expect, it } from 'vitest'
import { searchWalkRows } from './search'

describe('searchWalkRows (how far a search past its cap walks before it sorts its matches)', () => {
  it('walks ten times the end of the page', () => {
    expect(searchWalkRows(50)).toBe(500)
    expect(searchWalkRows(200)).toBe(2_000)
  })

  it('walks at most 2,000 rows, or twice the end of a deeper page', () => {
    expect(searchWalkRows(1_000)).toBe(2_000)
    expect(searchWalkRows(5_000)).toBe(10_000)
  })
})
