import { describe, expect, it } from 'vitest'
import { furtherWalkRows, searchWalkRows } from './search'

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

describe('furtherWalkRows (a longer walk where the first one found part of the page)', () => {
  it("walks as far as the term's rate puts the page's end, with a quarter to spare", () => {
    // 54 matches in the first 1,000 rows, the page ends at the 100th: about 1,852 rows, 2,315 walked.
    expect(furtherWalkRows(100, 1_000, 54)).toBe(2_315)
    expect(furtherWalkRows(300, 2_000, 150)).toBe(5_000)
  })

  it('sorts the matches instead when the first walk found none or the page lies beyond ten walks', () => {
    expect(furtherWalkRows(100, 1_000, 0)).toBeNull()
    expect(furtherWalkRows(100, 1_000, 12)).toBeNull()
    expect(furtherWalkRows(100, 1_000, 13)).toBe(9_616)
  })
})
