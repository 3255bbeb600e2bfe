import { describe, expect, it } from 'vitest'
import { companyPackagesFileName, packageFileName, safeFileNamePart } from './package-file-name'

describe('package file names (issue #15)', () => {
  it.each([
    ['Acme Corp', 'Fire Safety 101', 'Acme Corp - Fire Safety 101.zip'],
    ['Café & Co', 'Éthique: «Base»', 'Cafe Co - Ethique Base.zip'],
    ['../../etc', 'a/b\\c', 'etc - a b c.zip'],
    ['"quoted"\r\nX-Header: 1', 'course', 'quoted X-Header 1 - course.zip'],
    ['***', '', 'company - course.zip'],
  ])('%j + %j gives %j', (company, course, expected) => {
    expect(packageFileName(company, course)).toBe(expected)
  })

  it('keeps only safe characters and bounds the length', () => {
    const name = safeFileNamePart(`${'x'.repeat(200)}<>|?*`, 'f')
    expect(name).toMatch(/^[A-Za-z0-9 ._()-]+$/)
    expect(name.length).toBeLessThanOrEqual(80)
  })

  it('names a company zip', () => {
    expect(companyPackagesFileName('Acme Corp.')).toBe('Acme Corp - all packages.zip')
  })
})
