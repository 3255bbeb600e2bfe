import { sql, type SQL } from 'drizzle-orm'
import { can, type Permission, type Role } from '@portal/shared'
import { toVersion } from './statement'

/**
 * Rows written as JSON by PostgreSQL. A list answer's rows are most of its cost in
 * the server: node-postgres turns every value into a JavaScript value (dates through a regular
 * expression and `new Date`, arrays through a parser), the repository maps them, and the
 * answer's serialiser turns them back into text, on the server's one thread. Written here, the
 * page reaches the server as one text value it passes on unread, and PostgreSQL's own cost per
 * row grows by a small fraction of what the server saves (bench/results/history.md).
 *
 * The object is built by concatenation rather than json_build_object(), which looks up every
 * value's type in the catalogue cache on every row (three times dearer on PostgreSQL 15).
 */

/** How a value is written: the JSON the route's schema and the object mappers give for it. */
export type JsonKind =
  /** A string, escaped by to_json (text, varchar). */
  | 'text'
  /** A number as PostgreSQL writes it (integers; a double only where it is never NaN or infinite). */
  | 'number'
  | 'boolean'
  /** A timestamptz as JavaScript's Date#toISOString() writes it: UTC, milliseconds, "Z". */
  | 'timestamp'
  /** Anything to_json writes as the answer wants it (text[] as an array of strings, json, jsonb). */
  | 'json'
  /** Text that is JSON already (a nested jsonObjectSql, a literal 'null'): written as it is. */
  | 'raw'

export interface JsonField {
  /** The key, as written (letters and digits only: it is written into the SQL as is). */
  key: string
  value: SQL
  kind: JsonKind
}

const KEY = /^[A-Za-z][A-Za-z0-9]*$/

/** A timestamptz as toISOString() writes it (to_char truncates to the millisecond, as Date does). */
export function isoTimestampSql(value: SQL): SQL {
  return sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

function valueText(field: JsonField): SQL {
  switch (field.kind) {
    case 'text':
    case 'json':
      return sql`to_json(${field.value})::text`
    case 'number':
    case 'boolean':
      return sql`(${field.value})::text`
    case 'timestamp':
      return sql`'"' || ${isoTimestampSql(field.value)} || '"'`
    case 'raw':
      return field.value
  }
}

/** One row as the text of a JSON object, its keys in the order given. */
export function jsonObjectSql(fields: readonly JsonField[]): SQL {
  const parts = fields.map((field, i) => {
    if (!KEY.test(field.key)) throw new Error(`JSON key "${field.key}" must be letters and digits`)
    // Every value coalesced: one null would make the whole concatenation null, and string_agg
    // would drop the row without a word.
    return sql`${sql.raw(`'${i === 0 ? '{' : ','}"${field.key}":'`)} || coalesce(${valueText(field)}, 'null')`
  })
  return sql`(${sql.join(parts, sql` || `)} || '}')`
}

/** The rows' objects as the text of one JSON array, in `orderBy`'s order ('[]' when none). */
export function jsonArraySql(object: SQL, orderBy: SQL): SQL {
  return sql`('[' || coalesce(string_agg(${object}, ',' order by ${orderBy}), '') || ']')`
}

/** A jsonArraySql value as the driver returns it; '[]' when the statement read no row. */
export const jsonArrayText = (value: unknown): string => (value as string | null | undefined) ?? '[]'

/** A page written by PostgreSQL: its rows as one JSON array, how many, and the version it was read at. */
export interface JsonPage {
  rowsJson: string
  rowCount: number
  version: number | null
}

/** The one row of a page statement that selects `rowsJson`, `rowCount` and `version`. */
export function readJsonPage([row]: Record<string, unknown>[]): JsonPage {
  return {
    rowsJson: jsonArrayText(row?.rowsJson),
    rowCount: Number(row?.rowCount ?? 0),
    version: toVersion(row?.version),
  }
}

/**
 * An answer's fields declared once: which key each is, which column of the row it is written
 * from, how (its JSON kind), and which roles read it (docs/product-rules.md §6). The same declaration builds the
 * object mapper (a row read by the driver becomes the answer's object: single reads) and the SQL
 * that writes the rows as JSON (lists), so the two cannot drift apart. The keys come in the
 * declaration's order in both, which is the order of the route's response schema.
 */

/** Which roles read a field: every role that reads the answer, or those a permission names (docs/product-rules.md §6). */
export type FieldRoles = 'all' | Permission

/** A field written from one column of the row. */
export interface ColumnField<Row, Name extends string = string> {
  /** The answer's key (letters and digits: it is written into the SQL as is). */
  name: Name
  /**
   * The row's property the mapper reads, and the statement's column of that name the JSON is
   * written from (letters and digits).
   */
  column: keyof Row & string
  /** A timestamp is written as Date#toISOString() writes it; 'json' as to_json writes it (text[], json). */
  kind: 'text' | 'number' | 'boolean' | 'timestamp' | 'json'
  /** The value may be null (Nullable in the route's schema). */
  nullable?: boolean
  roles: FieldRoles
}

/** A field written as an object of columns; with `nullable`, null when all of them are null. */
export interface ObjectField<Row, Name extends string = string> {
  name: Name
  kind: 'object'
  fields: readonly Omit<ColumnField<Row>, 'roles'>[]
  nullable?: boolean
  roles: FieldRoles
}

export type AnswerField<Row, Name extends string = string> = ColumnField<Row, Name> | ObjectField<Row, Name>

/** The fields one role reads, in the answer's order. */
export interface AnswerView<Row> {
  readonly fields: readonly AnswerField<Row>[]
  /**
   * Which of the role-gated fields these are ('' when none): statements and cached pages built
   * for a view are kept under it, shared by the roles that read the same fields.
   */
  readonly key: string
}

/** A column's value as the answer has it (what the SQL below writes for it). */
function columnValue<Row>(field: Omit<ColumnField<Row>, 'roles'>, row: Row): unknown {
  const value: unknown = row[field.column]
  if (field.kind === 'timestamp') return value == null ? null : (value as Date).toISOString()
  return field.nullable ? (value ?? null) : value
}

function fieldValue<Row>(field: AnswerField<Row>, row: Row): unknown {
  if (field.kind !== 'object') return columnValue(field, row)
  const object: Record<string, unknown> = {}
  let present = false
  for (const part of field.fields) {
    const value = columnValue(part, row)
    object[part.name] = value
    if (value !== null) present = true
  }
  return field.nullable && !present ? null : object
}

/** A field as jsonObjectSql writes it, its columns read through `column`. */
function fieldJson<Row>(field: AnswerField<Row>, column: (name: keyof Row & string) => SQL): JsonField {
  if (field.kind !== 'object') return { key: field.name, value: column(field.column), kind: field.kind }
  const object = jsonObjectSql(field.fields.map((part) => fieldJson({ ...part, roles: 'all' }, column)))
  if (!field.nullable) return { key: field.name, value: object, kind: 'raw' }
  const allNull = sql.join(
    field.fields.map((part) => sql`${column(part.column)} is null`),
    sql` and `,
  )
  return { key: field.name, value: sql`case when ${allNull} then 'null' else ${object} end`, kind: 'raw' }
}

/**
 * An answer's declaration (AnswerField above, in the answer's order), with what is built from
 * it: `view(role)` the fields the role reads (kept per role), `toObject(row, role)` the answer's
 * object for a row, and `jsonSql(view, column)` the SQL writing a row as that object's JSON text
 * (`column` gives the SQL of a row's column). With no role, only the fields every role reads.
 */
export function answerFields<Row, Answer>(fields: readonly AnswerField<Row, keyof Answer & string>[]) {
  for (const field of fields) {
    const names =
      field.kind === 'object'
        ? [field.name, ...field.fields.flatMap((f) => [f.name, f.column])]
        : [field.name, field.column]
    for (const name of names) if (!KEY.test(name)) throw new Error(`Field "${name}" must be letters and digits`)
  }
  const views = new Map<Role | null, AnswerView<Row>>()
  function view(role?: Role | null): AnswerView<Row> {
    let found = views.get(role ?? null)
    if (!found) {
      const read = fields.filter((field) => field.roles === 'all' || can(role, field.roles))
      const gated = read.filter((field) => field.roles !== 'all').map((field) => field.name)
      found = { fields: read, key: gated.join('+') }
      views.set(role ?? null, found)
    }
    return found
  }
  return {
    fields,
    view,
    toObject(row: Row, role?: Role | null): Answer {
      const object: Record<string, unknown> = {}
      for (const field of view(role).fields) object[field.name] = fieldValue(field, row)
      return object as Answer
    },
    jsonSql(read: AnswerView<Row>, column: (name: keyof Row & string) => SQL): SQL {
      return jsonObjectSql(read.fields.map((field) => fieldJson(field, column)))
    },
  }
}
