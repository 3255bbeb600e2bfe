import { Type, type Static } from 'typebox'
import { UserSchema } from './users'

export const LoginBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
})
export type LoginBody = Static<typeof LoginBodySchema>

export const RefreshBodySchema = Type.Object({
  refreshToken: Type.String({ minLength: 1, maxLength: 4096 }),
})
export type RefreshBody = Static<typeof RefreshBodySchema>

export const SessionResponseSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  user: UserSchema,
})
export type SessionResponse = Static<typeof SessionResponseSchema>

/** Public facts the sign-in screen needs before anyone signs in. */
export const AuthConfigSchema = Type.Object({
  demoMode: Type.Boolean(),
  demoAccounts: Type.Array(Type.Object({ email: Type.String(), role: Type.String() })),
  demoPassword: Type.Union([Type.String(), Type.Null()]),
  supportEmail: Type.String(),
})
export type AuthConfig = Static<typeof AuthConfigSchema>
