import { describe, expect, it } from 'vitest'
import {
  companyPackagesFileName,
  learnersExportBaseName,
  packageFileName,
  reportExportBaseName,
  safeFileNamePart,
} from './package-file-name'

describe('package file names', () => {
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

describe('export file names: named for what they hold, safe on any file system', () => {
  it.each([
    [
      'Beacon Pharmaceuticals',
      'Budgeting Fundamentals',
      'Beacon Pharmaceuticals - Budgeting Fundamentals - completion report',
    ],
    ['Café/Bar: "Ünited"', 'Q1 <Safety> | Part 2?', 'Cafe Bar United - Q1 Safety Part 2 - completion report'],
    ['', '', 'company - course - completion report'],
  ])('report of %j + %j is %j', (company, course, expected) => {
    expect(reportExportBaseName(company, course)).toBe(expected)
  })

  it('names the learners export after the company', () => {
    expect(learnersExportBaseName('Acme\\Corp*')).toBe('Acme Corp - learners')
  })
})
