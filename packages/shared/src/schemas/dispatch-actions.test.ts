import { describe, expect, it } from 'vitest'
import { DISPATCH_CAP_MAX, dispatchCapMessage, parseDispatchCap } from './dispatch-actions'

describe('a dispatch cap typed in a form', () => {
  it.each([
    ['0', 0],
    ['25', 25],
    [' 40 ', 40],
    [String(DISPATCH_CAP_MAX), DISPATCH_CAP_MAX],
    [String(DISPATCH_CAP_MAX + 1), null],
    ['-1', null],
    ['2.5', null],
    ['abc', null],
    ['', null],
    ['  ', null],
  ])('%j → %s', (text, expected) => {
    expect(parseDispatchCap(text)).toBe(expected)
  })

  it('is explained under the form’s own label, with the limit written out', () => {
    expect(dispatchCapMessage('License cap')).toBe('License cap must be a whole number from 0 to 10,000,000.')
    expect(dispatchCapMessage('Registration cap')).toBe('Registration cap must be a whole number from 0 to 10,000,000.')
  })
})
