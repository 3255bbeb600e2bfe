import { Type, type Static } from 'typebox'
import { COMPANY_NAME_MAX } from '../rules/company'
import { IntegerFields, Nullable, PickProperties, UuidSchema } from './common'
import { DispatchSchema } from './dispatches'
import { RoleSchema, SalesUserSchema } from './users'

/** docs/product-rules.md §3 Company counts. */
export const CompanyCountsSchema = Type.Object(IntegerFields('users', 'courseRequests', 'dispatches'))

/** A company's id, name and account manager, in its list row and its detail alike. */
const CompanyNameFields = {
  id: Type.String(),
  name: Type.String(),
  accountManagerId: Type.Optional(Nullable(Type.String())),
  accountManagerName: Type.Optional(Nullable(Type.String())),
  accountManagerEmail: Type.Optional(Nullable(Type.String())),
}

/**
 * docs/product-rules.md §3 Company as GET /api/admin/companies lists it. `name` is the portal's name (an admin's
 * rename, else the provider's). The account manager fields reach admins only (docs/product-rules.md §2: the
 * Account Manager column is admin-only), so they are optional.
 */
export const CompanySchema = Type.Object({
  ...CompanyNameFields,
  counts: CompanyCountsSchema,
})
export type Company = Static<typeof CompanySchema>
export const CompanyListSchema = Type.Array(CompanySchema)

/** A user of the company, named as the user pickers name one, and the role. */
export const CompanyUserSchema = Type.Object({ ...SalesUserSchema.properties, role: RoleSchema })
export type CompanyUser = Static<typeof CompanyUserSchema>

export const CompanyCourseRequestSchema = Type.Object({
  id: Type.String(),
  courseTitle: Type.String(),
  requestedBy: Type.String(),
  licenses: Type.Integer(),
  status: Type.String(),
  createdAt: Type.String(),
})
export type CompanyCourseRequest = Static<typeof CompanyCourseRequestSchema>

/**
 * A dispatch of the company: licences used / total, total 0 meaning unlimited (docs/product-rules.md §3). The
 * course id lets the New Dispatch form mark the courses the company has already.
 */
export const CompanyDispatchSchema = Type.Object({
  ...PickProperties(DispatchSchema, ['id', 'courseId', 'courseTitle', 'created', 'expirationDate']),
  licensesUsed: Type.Integer(),
  licensesTotal: Type.Integer(),
})
export type CompanyDispatch = Static<typeof CompanyDispatchSchema>

/** GET /api/admin/companies/{id}. `scormError`: the dispatch figures may be stale (why). */
export const CompanyDetailSchema = Type.Object({
  ...CompanyNameFields,
  users: Type.Array(CompanyUserSchema),
  courseRequests: Type.Array(CompanyCourseRequestSchema),
  dispatches: Type.Array(CompanyDispatchSchema),
  scormError: Nullable(Type.String()),
})
export type CompanyDetail = Static<typeof CompanyDetailSchema>

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })))

/**
 * PUT /api/admin/companies/{id} (docs/product-rules.md §7). The list screen sends the chosen sales user's
 * accountManagerName and accountManagerEmail; accountManagerId is accepted too and wins. A null
 * or empty manager clears it; a field left out leaves it as it is.
 */
export const UpdateCompanyBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: COMPANY_NAME_MAX * 2 })),
  accountManagerId: Type.Optional(Nullable(Type.Union([UuidSchema, Type.Literal('')]))),
  accountManagerName: OptionalText(200),
  accountManagerEmail: OptionalText(254),
})
export type UpdateCompanyBody = Static<typeof UpdateCompanyBodySchema>

/** GET /api/admin/users/sales item: an account manager choice (docs/product-rules.md §3 "Sales user"). */
export type SalesUser = Static<typeof SalesUserSchema>
