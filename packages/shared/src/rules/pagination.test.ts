import { describe, expect, it } from 'vitest'
import { pageItemsWithGaps, pageWindow, showingDispatchesText, showingRange, showingRecordsText } from './pagination'

describe('pageWindow (docs/product-rules.md §9: up to 5 page numbers)', () => {
  it.each([
    [1, 0, []],
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, 4, 5]],
    [2, 10, [1, 2, 3, 4, 5]],
    [3, 10, [1, 2, 3, 4, 5]],
    [4, 10, [2, 3, 4, 5, 6]],
    [9, 10, [6, 7, 8, 9, 10]],
    [10, 10, [6, 7, 8, 9, 10]],
    [99, 10, [6, 7, 8, 9, 10]],
    [0, 10, [1, 2, 3, 4, 5]],
  ])('page %i of %i → %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected)
  })
})

describe('pageItemsWithGaps (docs/product-rules.md §2: first, last, neighbours, ... for gaps)', () => {
  it.each([
    [1, 0, []],
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [2, 3, [1, 2, 3]],
    [1, 10, [1, 2, '...', 10]],
    [3, 10, [1, 2, 3, 4, '...', 10]],
    [4, 10, [1, '...', 3, 4, 5, '...', 10]],
    [5, 10, [1, '...', 4, 5, 6, '...', 10]],
    [9, 10, [1, '...', 8, 9, 10]],
    [10, 10, [1, '...', 9, 10]],
    [3, 5, [1, 2, 3, 4, 5]],
  ])('page %i of %i → %j', (current, total, expected) => {
    expect(pageItemsWithGaps(current, total)).toEqual(expected)
  })
})

describe('Showing ranges', () => {
  it.each([
    [1, 50, 0, { from: 0, to: 0 }],
    [1, 50, 7, { from: 1, to: 7 }],
    [2, 50, 120, { from: 51, to: 100 }],
    [3, 50, 120, { from: 101, to: 120 }],
  ])('page %i, size %i, total %i → %j', (page, size, total, expected) => {
    expect(showingRange(page, size, total)).toEqual(expected)
  })

  it('words the dispatch list and report texts as docs/product-rules.md §2 does', () => {
    expect(showingDispatchesText(2, 50, 120)).toBe('Showing 51 to 100 of 120 dispatches')
    expect(showingDispatchesText(1, 50, 1)).toBe('Showing 1 to 1 of 1 dispatch')
    expect(showingRecordsText(1, 100, 250)).toBe('Showing 1-100 of 250 records')
    expect(showingRecordsText(3, 100, 250)).toBe('Showing 201-250 of 250 records')
  })
})
