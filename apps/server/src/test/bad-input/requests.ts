import type { InjectOptions } from 'fastify'
import { exampleOf, type BadValue } from './bad-values'
import type { Field, Operation } from './openapi-walk'

const SLOT = '__BAD_INPUT_SLOT__'

export interface BaseRequest {
  /** Values of the path parameters (the real target of the operation). */
  pathValues: Record<string, string>
  body: unknown
  headers: Record<string, string>
}

function urlOf(op: Operation, pathValues: Record<string, string>, override?: { name: string; raw: string }) {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    override?.name === name ? override.raw : encodeURIComponent(pathValues[name] ?? ''),
  )
}

/** The query string with every required parameter valid (from its schema). */
function baseQuery(op: Operation, except?: string): string[] {
  return op.queryRequired
    .filter((f) => f.path[0] !== except)
    .map((f) => `${encodeURIComponent(f.path[0]!)}=${encodeURIComponent(String(exampleOf(f.schema)))}`)
}

/** The operation as a valid caller would send it: the control for every bad input. */
export function controlRequest(op: Operation, base: BaseRequest): InjectOptions {
  const query = baseQuery(op)
  return {
    method: op.method,
    url: `${urlOf(op, base.pathValues)}${query.length ? `?${query.join('&')}` : ''}`,
    headers: base.headers,
    ...(op.bodySchema && base.body !== undefined ? { payload: base.body as object } : {}),
  }
}

/** Puts the slot at the field's place in a copy of the body, filling required parents. */
function bodyWithSlot(op: Operation, field: Field, body: unknown): string {
  const root: Record<string, unknown> =
    body && typeof body === 'object' ? structuredClone(body as Record<string, unknown>) : {}
  let holder: Record<string, unknown> | unknown[] = root
  for (let i = 0; i < field.path.length - 1; i += 1) {
    const key = field.path[i]!
    const parentPath = field.path.slice(0, i + 1).join('/')
    const existing = (holder as Record<string, unknown>)[key]
    if (existing === null || typeof existing !== 'object') {
      const parent = op.fields.find((f) => f.part === 'body' && f.path.join('/') === parentPath)
      const made = field.path[i + 1] === '0' ? [] : (exampleOf(parent?.schema ?? { type: 'object' }) ?? {})
      ;(holder as Record<string, unknown>)[key] = made
    }
    holder = (holder as Record<string, unknown>)[key] as Record<string, unknown> | unknown[]
  }
  ;(holder as Record<string, unknown>)[field.path[field.path.length - 1]!] = SLOT
  return JSON.stringify(root)
}

/** The request carrying one bad value in one field; null when the value has no form for that part. */
export function badRequest(op: Operation, base: BaseRequest, field: Field, bad: BadValue): InjectOptions | null {
  const name = field.path[0]!
  if (field.part === 'body') {
    const text = bodyWithSlot(op, field, base.body).replace(`"${SLOT}"`, () => bad.json)
    const query = baseQuery(op)
    return {
      method: op.method,
      url: `${urlOf(op, base.pathValues)}${query.length ? `?${query.join('&')}` : ''}`,
      headers: { ...base.headers, 'content-type': 'application/json' },
      payload: text,
    }
  }
  if (!bad.query) return null
  const { raw, repeat, bracket } = bad.query
  if (field.part === 'path') {
    if (raw === null || raw === '') return null // an empty segment is another route, not this input
    const url = urlOf(op, base.pathValues, { name, raw: bracket ? `${raw}[${bracket}]` : raw })
    return {
      method: op.method,
      url,
      headers: base.headers,
      ...(op.bodySchema && base.body !== undefined ? { payload: base.body as object } : {}),
    }
  }
  const key = encodeURIComponent(name)
  const pair = raw === null ? key : bracket ? `${key}[${bracket}]=${raw}` : `${key}=${raw}`
  const params = [...baseQuery(op, name), ...Array.from({ length: repeat ?? 1 }, () => pair)]
  return {
    method: op.method,
    url: `${urlOf(op, base.pathValues)}?${params.join('&')}`,
    headers: base.headers,
    ...(op.bodySchema && base.body !== undefined ? { payload: base.body as object } : {}),
  }
}
