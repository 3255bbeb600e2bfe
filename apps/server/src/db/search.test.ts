import { describe, expect, it } from 'vitest'
import { searchWalkRows } from './search'

describe('searchWalkRows (how far a search past its cap walks before it sorts its matches)', () => {
  it('walks the square root of the page end times the rows of the list', () => {
    expect(searchWalkRows(50, 100_000)).toBe(2_237)
    expect(searchWalkRows(1_000, 100_000)).toBe(10_000)
  })

  it('walks at least to the end of the page, also in a list it knows nothing of', () => {
    expect(searchWalkRows(100, 10)).toBe(100)
    expect(searchWalkRows(100, 0)).toBe(100)
  })
})
