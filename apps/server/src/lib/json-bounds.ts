/**
 * Ajv keywords bounding free-form JSON (schemas mark them with FreeJson() of
 * @portal/shared): `maxDepth` (nesting levels: a scalar is 0, `{ "a": 1 }` is 1) and
 * `maxJsonLength` (characters of the value's JSON text). A 5,000-level `details` object once
 * reached PostgreSQL and failed there as a 500.
 */

/** True when `value` nests deeper than `limit` levels; iterative, so any depth is safe to ask. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (item === null || typeof item !== 'object') continue
    if (depth + 1 > limit) return true
    for (const inner of Object.values(item)) stack.push([inner, depth + 1])
  }
  return false
}

interface KeywordError {
  keyword: string
  message: string
  params: Record<string, unknown>
}
type Validate = ((limit: number, data: unknown) => boolean) & { errors?: KeywordError[] }

function keyword(name: string, message: (limit: number) => string, fails: (data: unknown, limit: number) => boolean) {
  const validate: Validate = (limit, data) => {
    if (!fails(data, limit)) return true
    validate.errors = [{ keyword: name, message: message(limit), params: { limit } }]
    return false
  }
  return { keyword: name, schemaType: 'number', errors: true, validate }
}

/** The Ajv plugin (Fastify's `ajv.plugins`). Typed structurally: Ajv is Fastify's dependency, not ours. */
export function jsonBoundsKeywords<A extends { addKeyword(definition: never): unknown }>(ajv: A): A {
  const add = (definition: ReturnType<typeof keyword>) => ajv.addKeyword(definition as never)
  add(
    keyword(
      'maxDepth',
      (limit) => `must not be nested more than ${limit} levels deep`,
      (data, limit) => nestsDeeperThan(data, limit),
    ),
  )
  add(
    keyword(
      'maxJsonLength',
      (limit) => `must not be longer than ${limit} characters as JSON`,
      // Depth is bounded before this runs (the input guard refuses any body deeper than 32).
      (data, limit) => data !== undefined && JSON.stringify(data).length > limit,
    ),
  )
  return ajv
}
