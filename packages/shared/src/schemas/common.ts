import { Type, type Static, type TInteger, type TObject, type TProperties } from 'typebox'

/** A value or null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const ErrorResponseSchema = Type.Object(
  {
    code: Type.Optional(Type.String()),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorResponse' },
)
export type ErrorResponse = Static<typeof ErrorResponseSchema>

export const OkResponseSchema = Type.Object({ message: Type.String() })

export const UuidSchema = Type.String({ format: 'uuid', maxLength: 36 })
/** Provider ids (courses, dispatches, companies) are opaque strings chosen by SCORM Cloud. */
export const ProviderIdSchema = Type.String({ minLength: 1, maxLength: 200 })

/** The longest search term a list accepts; the search boxes stop typing there. */
export const SEARCH_MAX = 200
export const SearchTermSchema = Type.String({ maxLength: SEARCH_MAX })

/**
 * Bounds of a free-form JSON value, checked by the server's Ajv keywords
 * (apps/server/src/lib/json-bounds.ts): nesting levels (a scalar is 0, `{ "a": 1 }` is 1)
 * and the length of its JSON text. Every free-form request field carries both.
 */
export const FreeJson = (maxDepth: number, maxJsonLength: number) => ({ maxDepth, maxJsonLength })

/** A day filter `YYYY-MM-DD`, years 1000-9999 (PostgreSQL has no year 0). */
export const IsoDaySchema = Type.String({ pattern: '^[1-9]\\d{3}-\\d{2}-\\d{2}$', maxLength: 10 })

/** The `page` of a paged list query, 1-based. */
export const PageNumberSchema = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })

/** A list's sort direction. */
export const SortOrderSchema = (defaultOrder: 'asc' | 'desc') =>
  Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: defaultOrder })

/**
 * Whole-number fields by name, in that order, all required: the counters of an answer
 * (`Type.Object(IntegerFields('created', 'updated'))`, or spread among other fields).
 */
export function IntegerFields<const K extends string>(...names: K[]): { [P in K]: TInteger } {
  return Object.fromEntries(names.map((name) => [name, Type.Integer()])) as { [P in K]: TInteger }
}

/** Where a paged answer stands: its items are one page of `totalItems`. */
export const PaginationSchema = Type.Object(IntegerFields('totalItems', 'page', 'pageSize', 'totalPages'))
export type Pagination = Static<typeof PaginationSchema>

/** The company a row belongs to, by id and name; both null when it belongs to none. */
export const OwnerCompanyFields = {
  companyId: Nullable(Type.String()),
  companyName: Nullable(Type.String()),
}

/** Who made a row (their e-mail; null once that user is gone) and when. */
export const CreatorFields = {
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
}

/**
 * The named properties of an object schema, in that schema's order: an answer that is a
 * projection of another is `Type.Object(PickProperties(Other, [...]))`. Type.Pick builds the same
 * JSON Schema but brings TypeBox's computed-type engine into the shared chunk every screen of the
 * web app loads.
 */
export function PickProperties<T extends TProperties, const K extends keyof T & string>(
  schema: TObject<T>,
  keys: readonly K[],
): Pick<T, K> {
  const wanted: readonly string[] = keys
  return Object.fromEntries(Object.entries(schema.properties).filter(([key]) => wanted.includes(key))) as Pick<T, K>
}

export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) })
export const UuidParamsSchema = Type.Object({ id: UuidSchema })

/**
 * An enum of literal values typed as their union. (`Type.Union(list.map(Type.Literal))` loses
 * the literal types: its Static is `never`.)
 */
export function OneOf<const T extends readonly (string | number)[]>(values: T, options: { default?: T[number] } = {}) {
  const type = typeof values[0] === 'number' ? 'integer' : 'string'
  return Type.Unsafe<T[number]>({ type, enum: [...values], ...options })
}

/**
 * An object of any keys, as `Type.Record(Type.String(), Type.Unknown())` declares it (the same
 * JSON Schema: every key matches the pattern, so Ajv's removeAdditional keeps them). Written
 * out because TypeBox's Record brings its key engine into the shared chunk every screen of the
 * web app loads, several KiB for a schema only the security screens use.
 */
export const FreeObject = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', patternProperties: { '^.*$': {} }, ...options })
