import { describe, expect, it } from 'vitest'
import { appSourceName, courseVersionLabel } from './course-labels'

describe('course labels', () => {
  it('reads a provider revision as a release, keeps written versions, defaults to 1.0', () => {
    expect(courseVersionLabel('0')).toBe('1.0')
    expect(courseVersionLabel('3')).toBe('4.0')
    expect(courseVersionLabel('2.3')).toBe('2.3')
    expect(courseVersionLabel('')).toBe('1.0')
    expect(courseVersionLabel(null)).toBe('1.0')
  })

  it("names the simulator's app and shows any other app id as it is", () => {
    expect(appSourceName('sim-app')).toBe('Demo Library')
    expect(appSourceName('7')).toBe('7')
  })
})
