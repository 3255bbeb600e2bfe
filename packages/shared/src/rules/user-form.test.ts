import { describe, expect, it } from 'vitest'
import { PASSWORD_LENGTH_MESSAGE, PASSWORD_MESSAGES } from './password'
import { USER_FORM_MESSAGES as M, userFormError } from './user-form'

const good = {
  email: 'ada@example.com',
  password: 'a long enough passphrase',
  role: 'client',
  companyId: 'acme',
} as const

describe('userFormError: the user form and the users service ask this one function', () => {
  it('passes a complete new client and a staff user without a company', () => {
    expect(userFormError(good, { creating: true })).toBeNull()
    expect(userFormError({ ...good, role: 'sales', companyId: null }, { creating: true })).toBeNull()
  })

  it('asks for email and password on create only (a blank password on edit keeps the current one)', () => {
    expect(userFormError({ ...good, password: '' }, { creating: true })).toEqual({
      message: M.emailAndPasswordRequired,
      field: 'password',
    })
    expect(userFormError({ ...good, email: ' ' }, { creating: true })?.field).toBe('email')
    expect(userFormError({ ...good, password: '' }, { creating: false })).toBeNull()
  })

  it('checks, in order, the email, the client company and the password rule', () => {
    const bad = { email: 'not-an-email', password: 'short', role: 'client' as const, companyId: ' ' }
    expect(userFormError(bad, { creating: false })).toEqual({ message: M.invalidEmail, field: 'email' })
    expect(userFormError({ ...bad, email: good.email }, { creating: false })).toEqual({
      message: M.clientRequiresCompany,
      field: 'companyId',
    })
    expect(userFormError({ ...bad, email: good.email, companyId: 'acme' }, { creating: false })).toEqual({
      message: PASSWORD_LENGTH_MESSAGE,
      field: 'password',
    })
    expect(userFormError({ ...good, password: good.email }, { creating: false })?.message).toBe(
      PASSWORD_MESSAGES.ownEmail,
    )
  })
})
