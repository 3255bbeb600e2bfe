/**
 * docs/product-decisions.md D15: 12 to 128 characters, any characters, no composition rules. On top of it come
 * three refusals a length rule lets through: one character repeated, only whitespace, and the
 * account's own email. The user form and the server ask the same function; the server adds
 * the common-password list (apps/server/src/lib/passwords.ts), too large to ship to the browser.
 */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128

export const PASSWORD_LENGTH_MESSAGE = `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`

export const PASSWORD_MESSAGES = {
  length: PASSWORD_LENGTH_MESSAGE,
  onlyWhitespace: 'Password cannot be only spaces or other blank characters.',
  oneCharacter: 'Password cannot be a single character repeated.',
  ownEmail: 'Password cannot be the account’s email address or the part before the @.',
} as const

/** Counts code points, so a password of emoji is measured as a person would count it. */
export function passwordLengthError(password: string): string | null {
  const length = [...password].length
  return length < PASSWORD_MIN || length > PASSWORD_MAX ? PASSWORD_LENGTH_MESSAGE : null
}

const fold = (value: string) => value.trim().toLowerCase()

/**
 * The password rule, or null when the password passes it. `email` is the address the account
 * will have after this change (the form's value on create and edit).
 */
export function passwordRuleError(password: string, account: { email?: string | null } = {}): string | null {
  const lengthError = passwordLengthError(password)
  if (lengthError) return lengthError
  if (password.trim() === '') return PASSWORD_MESSAGES.onlyWhitespace
  if (new Set(password).size === 1) return PASSWORD_MESSAGES.oneCharacter
  const email = account.email ? fold(account.email) : ''
  if (email) {
    const local = email.split('@')[0] ?? ''
    const given = fold(password)
    if (given === email || (local !== '' && given === local)) return PASSWORD_MESSAGES.ownEmail
  }
  return null
}
