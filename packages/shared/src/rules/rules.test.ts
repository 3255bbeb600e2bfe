import { describe, expect, it } from 'vitest'
import { PASSWORD_LENGTH_MESSAGE, PASSWORD_MESSAGES, passwordLengthError, passwordRuleError } from './password'
import { avatarInitial, companyIdForRole, defaultUsername, displayName, isEmail } from './user-form'

describe('password length (docs/product-decisions.md D15: 12 to 128 characters)', () => {
  it.each([
    ['a'.repeat(11), PASSWORD_LENGTH_MESSAGE],
    ['a'.repeat(12), null],
    ['a'.repeat(128), null],
    ['a'.repeat(129), PASSWORD_LENGTH_MESSAGE],
    ['😀'.repeat(12), null],
  ])('%s → %s', (password, expected) => {
    expect(passwordLengthError(password)).toBe(expected)
  })
})

describe('password rule: what a length rule lets through', () => {
  const email = 'Jane.Doe.Longname@Example.com'
  it.each([
    ['a'.repeat(12), PASSWORD_MESSAGES.oneCharacter],
    ['😀'.repeat(12), PASSWORD_MESSAGES.oneCharacter],
    [' '.repeat(12), PASSWORD_MESSAGES.onlyWhitespace],
    ['\t \n\u00a0'.repeat(4), PASSWORD_MESSAGES.onlyWhitespace],
    ['jane.doe.longname@example.com', PASSWORD_MESSAGES.ownEmail],
    [' JANE.DOE.LONGNAME@EXAMPLE.COM ', PASSWORD_MESSAGES.ownEmail],
    ['jane.doe.longname', PASSWORD_MESSAGES.ownEmail],
    ['short', PASSWORD_LENGTH_MESSAGE],
    ['jane.doe.longname@example.com!', null],
    ['aaaaaaaaaaab', null],
    ['correct-horse-battery', null],
  ])('%j → %s', (password, expected) => {
    expect(passwordRuleError(password, { email })).toBe(expected)
  })

  it('without an email only the other rules apply', () => {
    expect(passwordRuleError('jane.doe.longname@example.com')).toBeNull()
    expect(passwordRuleError('b'.repeat(20))).toBe(PASSWORD_MESSAGES.oneCharacter)
  })
})

describe('user form rules (docs/product-rules.md §3, §5)', () => {
  it('keeps companyId only for clients', () => {
    expect(companyIdForRole('client', ' acme ')).toBe('acme')
    expect(companyIdForRole('client', '')).toBeNull()
    expect(companyIdForRole('sales', 'acme')).toBeNull()
    expect(companyIdForRole('admin', 'acme')).toBeNull()
  })

  it('defaults the username to the part before @', () => {
    expect(defaultUsername('jane.doe@example.com')).toBe('jane.doe')
  })

  it('shows the name, else one derived from the email, else the username', () => {
    expect(displayName({ name: 'Jane Doe', email: 'x@y.z' })).toBe('Jane Doe')
    expect(displayName({ name: null, email: 'jane.doe@example.com' })).toBe('Jane Doe')
    expect(displayName({ name: ' ', email: null, username: 'jdoe' })).toBe('jdoe')
  })

  it('uses the initial of the name or the email for the avatar', () => {
    expect(avatarInitial({ name: 'jane', email: 'x@y.z' })).toBe('J')
    expect(avatarInitial({ name: null, email: 'bob@y.z' })).toBe('B')
  })

  it.each([
    ['a@b.co', true],
    ['admin@demo.local', true],
    ['no-at-sign', false],
    ['a@b', false],
    ['a b@c.d', false],
  ])('isEmail(%s) is %s', (value, expected) => {
    expect(isEmail(value)).toBe(expected)
  })
})
