import { describe, expect, it } from 'vitest'
import { mfaRequiredFor } from './mfa'

const none = { roles: {}, companyRequired: false }

describe('whether a user must hold a second factor', () => {
  it('requires admins by default outside demo mode, and nobody by default in demo mode', () => {
    expect(mfaRequiredFor({ role: 'admin', companyId: null }, { ...none, demoMode: false })).toBe(true)
    expect(mfaRequiredFor({ role: 'internal', companyId: null }, { ...none, demoMode: false })).toBe(false)
    expect(mfaRequiredFor({ role: 'admin', companyId: null }, { ...none, demoMode: true })).toBe(false)
  })

  it('follows a saved role rule over the default, in either mode', () => {
    expect(
      mfaRequiredFor({ role: 'admin', companyId: null }, { ...none, roles: { admin: false }, demoMode: false }),
    ).toBe(false)
    expect(
      mfaRequiredFor({ role: 'sales', companyId: null }, { ...none, roles: { sales: true }, demoMode: true }),
    ).toBe(true)
  })

  it("applies a company's rule to its client users only, never a role rule", () => {
    const rules = { roles: { client: true }, companyRequired: true, demoMode: false }
    expect(mfaRequiredFor({ role: 'client', companyId: 'c1' }, rules)).toBe(true)
    expect(mfaRequiredFor({ role: 'client', companyId: 'c1' }, { ...rules, companyRequired: false })).toBe(false)
    expect(mfaRequiredFor({ role: 'client', companyId: null }, rules)).toBe(false)
    expect(
      mfaRequiredFor({ role: 'internal', companyId: null }, { ...none, companyRequired: true, demoMode: true }),
    ).toBe(false)
  })
})
