import { Type, type Static } from 'typebox'
import { ROLES, type Role } from '../roles'
import { ownCompanyOnly } from '../permissions'
import { RoleSchema } from './users'
import { FreeJson, FreeObject, Nullable, OneOf, UuidSchema } from './common'
import { SessionResponseSchema } from './auth'

/** Second factors a user can hold; `recovery` is a one-use code, not a factor of its own. */
export const MFA_FACTOR_KINDS = ['totp', 'passkey'] as const
export type MfaFactorKind = (typeof MFA_FACTOR_KINDS)[number]
export const MFA_METHODS = ['totp', 'passkey', 'recovery'] as const
export type MfaMethod = (typeof MFA_METHODS)[number]

/** How many recovery codes a user gets, each usable once. */
export const RECOVERY_CODE_COUNT = 10
/** The second-step token's life: just long enough to open the app and type a code. */
export const SECOND_STEP_SECONDS = 60
/** The longest name a user may give a factor (a passkey or an authenticator app). */
export const FACTOR_NAME_MAX = 100
/** The enrolment-only token's life: installing an app and scanning a code takes longer. */
export const ENROL_STEP_SECONDS = 10 * 60

export const MFA_MESSAGES = {
  codeWrong: 'That code is not right. Check the time on your phone and try again.',
  codeUsed: 'That code has already been used. Wait for the next one.',
  codeMalformed: 'Enter the 6-digit code from your authenticator app.',
  recoveryWrong: 'That recovery code is not right or has already been used.',
  stepExpired: 'Your sign-in has expired. Please sign in again.',
  tooMany: 'Too many attempts. Please try again later.',
  lastFactor: 'A second factor is required for your account: add another before removing this one.',
  factorNotFound: 'That factor was not found.',
  sessionNotFound: 'That session was not found.',
  passkeyRefused: 'The passkey could not be verified. Try again or use another way to sign in.',
  passkeyNotAdded: 'The passkey could not be added. Please try again.',
  passkeyPromptExpired: 'The passkey prompt has expired. Please try again.',
  passkeyExists: 'That passkey is already registered.',
  noPasskey: 'This account has no passkey: use another way to sign in.',
} as const

/** The answer after a right password when a second step (or enrolment) must follow. */
export const SecondStepSchema = Type.Object({
  /** Single-purpose: opens only the second-step (or enrolment) routes, once, for a short time. */
  token: Type.String(),
  kind: OneOf(['verify', 'enrol'] as const),
  methods: Type.Array(OneOf(MFA_METHODS)),
  expiresAt: Type.String(),
})
export type SecondStep = Static<typeof SecondStepSchema>

export const SecondStepResponseSchema = Type.Object({ secondStep: SecondStepSchema })
export type SecondStepResponse = Static<typeof SecondStepResponseSchema>

/** POST /api/auth/login and the single sign-on exchange: a session, or a second step first. */
export const SignInResponseSchema = Type.Union([SessionResponseSchema, SecondStepResponseSchema])
export type SignInResponse = Static<typeof SignInResponseSchema>

const StepToken = Type.String({ minLength: 1, maxLength: 200 })
/** Six digits; spaces a user types between groups are dropped by the server. */
const TotpCode = Type.String({ minLength: 1, maxLength: 20 })

export const SecondStepCodeBodySchema = Type.Object({ token: StepToken, code: TotpCode })
export type SecondStepCodeBody = Static<typeof SecondStepCodeBodySchema>
export const RecoveryCodeBodySchema = Type.Object({
  token: StepToken,
  code: Type.String({ minLength: 1, maxLength: 40 }),
})
export const StepTokenBodySchema = Type.Object({ token: StepToken })

export const TotpEnrolmentSchema = Type.Object({
  factorId: Type.String(),
  /** The key as text (base32), for apps that cannot scan. */
  secret: Type.String(),
  otpauthUrl: Type.String(),
  /** The otpauth URL as a QR code (a data: URL of an SVG image). */
  qrCode: Type.String(),
})
export type TotpEnrolment = Static<typeof TotpEnrolmentSchema>

export const TotpConfirmBodySchema = Type.Object({
  code: TotpCode,
  name: Type.Optional(Type.String({ maxLength: FACTOR_NAME_MAX })),
})
export const EnrolConfirmBodySchema = Type.Object({ token: StepToken, factorId: UuidSchema, code: TotpCode })

/** Recovery codes, shown once: when the first factor is added and when regenerated. */
export const RecoveryCodesSchema = Type.Object({ recoveryCodes: Type.Array(Type.String()) })
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>
export const FactorAddedSchema = Type.Object({ recoveryCodes: Nullable(Type.Array(Type.String())) })
export type FactorAdded = Static<typeof FactorAddedSchema>

export const EnrolCompleteSchema = Type.Intersect([SessionResponseSchema, FactorAddedSchema])
export type EnrolComplete = Static<typeof EnrolCompleteSchema>

export const MfaFactorSchema = Type.Object({
  id: Type.String(),
  kind: OneOf(MFA_FACTOR_KINDS),
  name: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
})
export type MfaFactor = Static<typeof MfaFactorSchema>

/** GET /api/profile/security: the caller's factors, codes left, and whether a factor is required. */
export const MfaStatusSchema = Type.Object({
  factors: Type.Array(MfaFactorSchema),
  recoveryCodesLeft: Type.Integer(),
  required: Type.Boolean(),
})
export type MfaStatus = Static<typeof MfaStatusSchema>

export const SessionInfoSchema = Type.Object({
  id: Type.String(),
  browser: Type.String(),
  system: Type.String(),
  ipAddress: Nullable(Type.String()),
  startedAt: Type.String(),
  lastUsedAt: Type.String(),
  current: Type.Boolean(),
})
export type SessionInfo = Static<typeof SessionInfoSchema>
export const SessionListSchema = Type.Array(SessionInfoSchema)

export const EndedSessionsSchema = Type.Object({ message: Type.String(), ended: Type.Integer() })
export type EndedSessions = Static<typeof EndedSessionsSchema>

/** "Second factor required" per staff role (admin settings). */
export const MfaRoleRulesSchema = Type.Object({
  rules: Type.Array(Type.Object({ role: RoleSchema, required: Type.Boolean(), isDefault: Type.Boolean() })),
})
export type MfaRoleRules = Static<typeof MfaRoleRulesSchema>
export const MfaRoleRulesBodySchema = Type.Object({
  rules: Type.Array(Type.Object({ role: RoleSchema, required: Type.Boolean() }), { minItems: 1, maxItems: 4 }),
})
export type MfaRoleRulesBody = Static<typeof MfaRoleRulesBodySchema>

/**
 * "Second factor required" for a company's client users (the company screen), and whether a
 * second factor its single sign-on provider reports (OIDC `amr`) counts as one.
 */
export const MfaCompanyRuleSchema = Type.Object({ required: Type.Boolean(), trustProviderFactor: Type.Boolean() })
export type MfaCompanyRule = Static<typeof MfaCompanyRuleSchema>
/** Left out, "trust the provider's second factor" keeps its value. */
export const MfaCompanyRuleBodySchema = Type.Object({
  required: Type.Boolean(),
  trustProviderFactor: Type.Optional(Type.Boolean()),
})
export type MfaCompanyRuleBody = Static<typeof MfaCompanyRuleBodySchema>

/** A user's factors as User Management shows them (never a key or credential). */
export const UserMfaSchema = Type.Object({ ...MfaStatusSchema.properties, activeSessions: Type.Integer() })
export type UserMfa = Static<typeof UserMfaSchema>

/** A WebAuthn options or response object from the browser library, bounded as free JSON. */
export const WebAuthnJsonSchema = FreeObject({ maxProperties: 20, ...FreeJson(8, 20_000) })
export const PasskeyOptionsSchema = Type.Object({ options: Type.Unknown() })
export const PasskeyRegisterBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: FACTOR_NAME_MAX }),
  response: WebAuthnJsonSchema,
})
export const PasskeyStepBodySchema = Type.Object({ token: StepToken, response: WebAuthnJsonSchema })
export const PasskeySignInOptionsSchema = Type.Object({ token: Type.String(), options: Type.Unknown() })
/** A new name for a factor (an authenticator app or a passkey). */
export const FactorRenameBodySchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: FACTOR_NAME_MAX }) })

/**
 * Staff roles whose "second factor required" is on when an admin has not set it: admins, once
 * the deployment is not in demo mode (docs/decisions.md "Second factors").
 */
export const MFA_REQUIRED_BY_DEFAULT: readonly Role[] = ['admin']
/** The roles the per-role rule governs (a client user follows its company's rule). */
export const MFA_STAFF_ROLES: readonly Role[] = ROLES.filter((role) => !ownCompanyOnly(role))

/** Whether a user must hold a second factor under the rules. */
export function mfaRequiredFor(
  user: { role: Role; companyId: string | null },
  rules: {
    roles: Partial<Record<Role, boolean>>
    companyRequired: boolean
    demoMode: boolean
    /** The deployment's own default (MFA_DEFAULT_ROLES); absent: MFA_REQUIRED_BY_DEFAULT. */
    defaultRoles?: readonly Role[]
  },
): boolean {
  if (ownCompanyOnly(user.role)) return Boolean(user.companyId) && rules.companyRequired
  return (
    rules.roles[user.role] ?? (!rules.demoMode && (rules.defaultRoles ?? MFA_REQUIRED_BY_DEFAULT).includes(user.role))
  )
}
