/** DECISIONS.md: 12 to 128 characters, any characters, no composition rules. */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128

export const PASSWORD_LENGTH_MESSAGE = `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`

/** Counts code points, so a password of emoji is measured as a person would count it. */
export function passwordLengthError(password: string): string | null {
  const length = [...password].length
  return length < PASSWORD_MIN || length > PASSWORD_MAX ? PASSWORD_LENGTH_MESSAGE : null
}
