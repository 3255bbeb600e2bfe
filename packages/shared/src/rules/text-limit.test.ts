import { describe, expect, it } from 'vitest'
import { limitCounter, textLength, tooLongMessage } from './text-limit'

describe('text limits', () => {
  it('counts code points, as the server schema does', () => {
    expect(textLength('abc')).toBe(3)
    expect(textLength('😀a')).toBe(2)
    expect(textLength('')).toBe(0)
  })

  it('shows the count against the limit with thousands separators', () => {
    expect(limitCounter('x'.repeat(4980), 5000)).toBe('4,980 / 5,000')
    expect(limitCounter('', 2000)).toBe('0 / 2,000')
  })

  it('names the limit and the length once past it, and nothing at or below it', () => {
    expect(tooLongMessage('Notes', 'x'.repeat(5000), 5000)).toBeNull()
    expect(tooLongMessage('Notes', 'x'.repeat(12000), 5000)).toBe(
      'Notes can be at most 5,000 characters (12,000 entered).',
    )
  })
})
