import { ownCompanyOnly } from '../permissions'
import type { Role } from '../roles'
import { passwordRuleError } from './password'

/** docs/product-rules.md §5 user-form texts, used by the form and by the service. */
export const USER_FORM_MESSAGES = {
  emailAndPasswordRequired: 'Email and password are required for new users.',
  clientRequiresCompany: 'Client role requires a selected client (destination).',
  cannotDeleteSelf: 'Admins cannot delete their own account.',
  cannotChangeOwnStatus: 'Admins cannot change their own account status.',
  cannotChangeOwnRole: 'Admins cannot change their own role.',
  userNotFound: 'User not found',
  emailInUse: 'A user with this email already exists.',
  invalidEmail: 'Please enter a valid email address.',
  companyNotFound: 'The selected client (destination) does not exist.',
} as const

/** docs/product-rules.md §5: companyId is sent only for role client, otherwise null. */
export function companyIdForRole(role: Role, companyId: string | null | undefined): string | null {
  if (!ownCompanyOnly(role)) return null
  const id = companyId?.trim()
  return id ? id : null
}

export interface UserFormInput {
  email: string
  /** Blank or absent on edit keeps the current password (docs/product-rules.md §5). */
  password?: string | null
  role: Role
  companyId?: string | null
}

export type UserFormField = 'email' | 'password' | 'companyId'

/**
 * docs/product-rules.md §5 and the password rule, in the order the form shows them: the first failing check, or
 * null. The user form and the users service both ask this one function; the server then adds
 * what only it can know (the common-password list, a taken email, a company that exists).
 */
export function userFormError(
  input: UserFormInput,
  { creating }: { creating: boolean },
): { message: string; field: UserFormField } | null {
  const email = input.email.trim()
  if (creating && (!email || !input.password)) {
    return { message: USER_FORM_MESSAGES.emailAndPasswordRequired, field: email ? 'password' : 'email' }
  }
  if (!isEmail(email)) return { message: USER_FORM_MESSAGES.invalidEmail, field: 'email' }
  if (ownCompanyOnly(input.role) && !companyIdForRole(input.role, input.companyId)) {
    return { message: USER_FORM_MESSAGES.clientRequiresCompany, field: 'companyId' }
  }
  const passwordError = input.password ? passwordRuleError(input.password, { email }) : null
  return passwordError ? { message: passwordError, field: 'password' } : null
}

/** docs/product-rules.md §3: username defaults to the part of the email before @. */
export function defaultUsername(email: string): string {
  return email.split('@')[0] ?? email
}

/** docs/product-rules.md §2 shell: the name, else a name derived from the email, else the username. */
export function displayName(user: { name?: string | null; email?: string | null; username?: string | null }): string {
  if (user.name?.trim()) return user.name.trim()
  const local = user.email?.split('@')[0]
  if (local) {
    return local
      .split(/[._-]+/)
      .filter(Boolean)
      .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
      .join(' ')
  }
  return user.username ?? ''
}

/** docs/product-rules.md §2: the avatar shows the initial of the name or email. */
export function avatarInitial(user: { name?: string | null; email?: string | null }): string {
  const source = user.name?.trim() || user.email || '?'
  return source.charAt(0).toUpperCase()
}

/** A plain, permissive email shape check; the address itself is proven by signing in. */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
