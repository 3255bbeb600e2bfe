import { describe, expect, it } from 'vitest'
import { COMPANY_MESSAGES, companyMatches, companyNameError, showingCompaniesText } from './company'

describe('company rules (docs/product-rules.md §2, §5)', () => {
  it.each<[string | null | undefined, string | null]>([
    ['Acme', null],
    ['  Acme  ', null],
    ['', COMPANY_MESSAGES.nameEmpty],
    ['   ', COMPANY_MESSAGES.nameEmpty],
    [null, COMPANY_MESSAGES.nameEmpty],
    ['x'.repeat(201), 'Company name must be at most 200 characters.'],
  ])('name %j → %s', (name, expected) => {
    expect(companyNameError(name)).toBe(expected)
  })

  const acme = {
    id: 'dest-42',
    name: 'Acme Learning',
    accountManagerName: 'Sam Sales',
    accountManagerEmail: 'sam@x.test',
  }
  it.each([
    ['acme', true],
    ['LEARN', true],
    ['dest-42', true],
    ['sam sales', true],
    ['SAM@X', true],
    ['', true],
    ['globex', false],
  ])('search %j matches: %s', (term, expected) => {
    expect(companyMatches(acme, term)).toBe(expected)
  })

  it('ignores missing account manager fields', () => {
    expect(companyMatches({ id: 'a', name: 'B' }, 'sam')).toBe(false)
  })

  it('says Showing X of Y companies', () => {
    expect(showingCompaniesText(2, 10)).toBe('Showing 2 of 10 companies')
    expect(showingCompaniesText(1, 1)).toBe('Showing 1 of 1 companies')
    expect(showingCompaniesText(0, 0)).toBe('Showing 0 of 0 companies')
  })
})
