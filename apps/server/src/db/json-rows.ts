import { sql, type SQL } from 'drizzle-orm'

/**
 * Rows written as JSON by PostgreSQL (issue #13). A list answer's rows are most of its cost in
 * the server: node-postgres turns every value into a JavaScript value (dates through a regular
 * expression and `new Date`, arrays through a parser), the repository maps them, and the
 * answer's serialiser turns them back into text: about 24 µs a row on the bench machine, so a
 * 200-row page cost 6 ms of the server's one thread. Written here, the page reaches the server
 * as one text value it passes on unread, and PostgreSQL's cost per row grows by about 2 µs.
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
