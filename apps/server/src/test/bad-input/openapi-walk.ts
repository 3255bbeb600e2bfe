/**
 * Reading the server's own OpenAPI document (@fastify/swagger, OpenAPI 3.0): its operations,
 * the inputs of each (path and query parameters, every body field at any depth), and whether
 * every input schema is bounded. A route added later is picked up from the document as it is.
 */

export interface JsonSchema {
  type?: string | string[]
  nullable?: boolean
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number | boolean
  exclusiveMaximum?: number | boolean
  maxItems?: number
  minItems?: number
  maxProperties?: number
  maxDepth?: number
  maxJsonLength?: number
  required?: string[]
  properties?: Record<string, JsonSchema>
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
  items?: JsonSchema | JsonSchema[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  default?: unknown
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie'
  name: string
  required?: boolean
  schema: JsonSchema
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
}

export type Part = 'path' | 'query' | 'body'

export interface Field {
  part: Part
  /** Path segments inside the part: ['id'], ['page'], ['learner', 'email'], ['tags', '0']. */
  path: string[]
  schema: JsonSchema
  required: boolean
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** As the document writes it: `/api/dispatches/{id}`. */
  path: string
  /** As Fastify registers it, trailing slash dropped: `/api/dispatches/:id`. */
  route: string
  fields: Field[]
  bodySchema: JsonSchema | null
  queryRequired: Field[]
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** `a/b` as the error answers name it (Ajv's instancePath without the leading slash). */
export const fieldName = (field: Field) => field.path.join('/')

/** The member schemas of a union, or the schema itself. */
export function members(schema: JsonSchema): JsonSchema[] {
  const union = schema.anyOf ?? schema.oneOf
  return union ? union.flatMap(members) : [schema]
}

/** The JSON types a schema admits ('any' for a free-form value). */
export function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>()
  for (const m of members(schema)) {
    if (m.nullable) types.add('null')
    if (m.enum && m.enum.every((v) => v === null)) {
      types.add('null')
      continue
    }
    if (m.type === undefined && !m.enum && m.const === undefined) types.add('any')
    for (const t of [m.type ?? []].flat()) types.add(t)
  }
  return types
}

/** Every input of a body schema: each property at any depth, each array's items (as `0`). */
function bodyFields(schema: JsonSchema, path: string[], required: boolean, out: Field[]): void {
  if (path.length > 0) out.push({ part: 'body', path, schema, required })
  for (const m of members(schema)) {
    for (const [name, inner] of Object.entries(m.properties ?? {})) {
      bodyFields(inner, [...path, name], m.required?.includes(name) ?? false, out)
    }
    if (m.items && !Array.isArray(m.items)) bodyFields(m.items, [...path, '0'], false, out)
  }
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const fields: Field[] = []
      for (const p of op.parameters ?? []) {
        if (p.in === 'path' || p.in === 'query') {
          fields.push({ part: p.in, path: [p.name], schema: p.schema, required: p.required ?? false })
        }
      }
      const bodySchema = op.requestBody?.content['application/json']?.schema ?? null
      if (bodySchema) bodyFields(bodySchema, [], true, fields)
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        route: path.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1'),
        fields,
        bodySchema,
        queryRequired: fields.filter((f) => f.part === 'query' && f.required),
      })
    }
  }
  return operations
}

/**
 * Where an input schema is unbounded (bounds on every string, number and array):
 * a string without maxLength (or a closed list), a number without both limits, an array
 * without maxItems, an open object without maxProperties, a free-form value without maxDepth
 * and maxJsonLength (on itself or on the open object holding it).
 */
export function unboundedNodes(schema: JsonSchema, at: string, freeFormBounded = false): string[] {
  const problems: string[] = []
  const closed = schema.enum !== undefined || schema.const !== undefined
  const bounded = freeFormBounded || (schema.maxDepth !== undefined && schema.maxJsonLength !== undefined)
  const union = schema.anyOf ?? schema.oneOf ?? schema.allOf
  if (union) {
    union.forEach((m, i) => problems.push(...unboundedNodes(m, `${at}|${i}`, bounded)))
    return problems
  }
  const types = [schema.type ?? []].flat()
  if (types.length === 0 && !closed && !bounded)
    problems.push(`${at}: free-form value without maxDepth and maxJsonLength`)
  for (const type of types) {
    if (closed) break
    if (type === 'string' && schema.maxLength === undefined) problems.push(`${at}: string without maxLength`)
    if (type === 'number' || type === 'integer') {
      const low = schema.minimum !== undefined || typeof schema.exclusiveMinimum === 'number'
      const high = schema.maximum !== undefined || typeof schema.exclusiveMaximum === 'number'
      if (!low || !high) problems.push(`${at}: ${type} without minimum and maximum`)
    }
    if (type === 'array') {
      if (schema.maxItems === undefined) problems.push(`${at}: array without maxItems`)
      const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : []
      if (items.length === 0 && !bounded) problems.push(`${at}: array without an items schema`)
      items.forEach((item) => problems.push(...unboundedNodes(item, `${at}/0`, bounded)))
    }
    if (type === 'object') {
      for (const [name, inner] of Object.entries(schema.properties ?? {})) {
        problems.push(...unboundedNodes(inner, `${at}/${name}`, bounded))
      }
      const open = [
        ...(schema.additionalProperties && typeof schema.additionalProperties === 'object'
          ? [schema.additionalProperties]
          : schema.additionalProperties === true
            ? [{}]
            : []),
        ...Object.values(schema.patternProperties ?? {}),
      ]
      if (open.length > 0) {
        if (schema.maxProperties === undefined) problems.push(`${at}: open object without maxProperties`)
        open.forEach((inner) => problems.push(...unboundedNodes(inner, `${at}/*`, bounded)))
      }
    }
  }
  return problems
}
