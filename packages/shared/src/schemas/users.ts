import { Type, type Static } from 'typebox'
import { Nullable } from './common'
import { PASSWORD_MAX, PASSWORD_MIN } from '../rules/password'

export const RoleSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('internal'),
  Type.Literal('sales'),
  Type.Literal('client'),
])
export const UserStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('suspended')])
export type UserStatus = Static<typeof UserStatusSchema>

/** docs/product-rules.md §3 User, as every user-returning call sends it. Never carries a password hash. */
export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  username: Type.String(),
  name: Nullable(Type.String()),
  role: RoleSchema,
  companyId: Nullable(Type.String()),
  destinationId: Nullable(Type.String()),
  destinationName: Nullable(Type.String()),
  status: UserStatusSchema,
  createdAt: Type.String(),
  lastLogin: Nullable(Type.String()),
})
export type User = Static<typeof UserSchema>

export const UserListSchema = Type.Array(UserSchema)

/** The user form counts against these and the schema refuses past them. */
export const USER_EMAIL_MAX = 254
export const USERNAME_MAX = 100

const PasswordSchema = Type.String({ maxLength: PASSWORD_MAX * 4 })
const OptionalNullableString = (max: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]))

/**
 * docs/product-rules.md §7 POST /api/users body. Required fields and the password policy are checked by the
 * service, so the answers use the docs/product-rules.md §5 texts rather than schema wording.
 */
export const CreateUserSchema = Type.Object({
  email: Type.String({ maxLength: USER_EMAIL_MAX }),
  username: OptionalNullableString(USERNAME_MAX),
  name: OptionalNullableString(200),
  password: Type.Optional(PasswordSchema),
  role: RoleSchema,
  destinationId: OptionalNullableString(200),
  companyId: OptionalNullableString(200),
})
export type CreateUser = Static<typeof CreateUserSchema>

export const UpdateUserSchema = Type.Object({
  email: Type.Optional(Type.String({ maxLength: USER_EMAIL_MAX })),
  username: OptionalNullableString(USERNAME_MAX),
  name: OptionalNullableString(200),
  password: Type.Optional(PasswordSchema),
  role: Type.Optional(RoleSchema),
  destinationId: OptionalNullableString(200),
  companyId: OptionalNullableString(200),
})
export type UpdateUser = Static<typeof UpdateUserSchema>

export const UserStatusBodySchema = Type.Object({ status: UserStatusSchema })

export const UserMutationResponseSchema = Type.Intersect([UserSchema, Type.Object({ message: Type.String() })])

export const SalesUserSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
})
export const SalesUserListSchema = Type.Array(SalesUserSchema)

/** GET /api/auth/users: the log screen's user filter. */
export const UserOptionSchema = SalesUserSchema
export const UserOptionListSchema = Type.Array(UserOptionSchema)
export type UserOption = Static<typeof UserOptionSchema>

export { PASSWORD_MIN }
