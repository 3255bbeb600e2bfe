import { hash, verify, type Options } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { passwordRuleError } from '@portal/shared'

/** OWASP password storage cheat sheet: argon2id, m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS: Options = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable as a value here)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
}

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS)

let verifications = 0
/** How many argon2 verifications this process has run: proof that every sign-in path runs one. */
export const passwordVerifications = () => verifications

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  verifications += 1
  try {
    return await verify(passwordHash, password)
  } catch {
    return false // a malformed stored hash never signs anyone in
  }
}

let dummyHash: Promise<string> | null = null
/**
 * Unknown emails are checked against this hash, so a sign-in takes as long whether or not
 * the account exists (docs/product-decisions.md D16).
 */
export function burnPasswordCheck(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('dummy-password-for-timing-only')
  return dummyHash.then((h) => verifyPassword(h, password))
}

// A maintained list from a package (docs/product-decisions.md D15), kept as a set for O(1) look-ups.
const COMMON = new Set((dictionary as Record<string, string[] | undefined>)['passwords-common'] ?? [])

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less guessable one.'

/**
 * Returns the message to show, or null when the password is acceptable: the shared rule (the
 * user form runs it too), then the common-password list. `email` is the account's address.
 */
export function passwordPolicyError(password: string, account: { email?: string | null } = {}): string | null {
  const ruleError = passwordRuleError(password, account)
  if (ruleError) return ruleError
  if (COMMON.has(password.toLowerCase())) return COMMON_PASSWORD_MESSAGE
  return null
}
