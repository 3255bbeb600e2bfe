/** Small HTTP helpers shared by the server and the routes (node:http only). */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/** A 4xx/5xx answer with the reference's `{ message }` body (docs/scorm-cloud-api.md §1.2). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Binary answers (the zip endpoints): piped with backpressure instead of a JSON body. */
  stream?: Readable
}

export const noContent = (): Reply => ({ status: 204 })
export const ok = (body: unknown, headers?: Record<string, string>): Reply =>
  headers ? { status: 200, body, headers } : { status: 200, body }

const MAX_BODY = 1_000_000

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > MAX_BODY) throw new HttpError(413, 'Request body too large')
    chunks.push(buf)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON')
  }
}

export function sendReply(res: ServerResponse, reply: Reply, headOnly = false): void {
  if (res.headersSent || res.destroyed) return
  const headers: Record<string, string> = { ...reply.headers }
  if (reply.stream) {
    res.writeHead(reply.status, headers)
    if (headOnly) {
      reply.stream.destroy()
      res.end()
      return
    }
    // A client that goes away ends the pipeline; nothing else is waiting on it.
    pipeline(reply.stream, res).catch(() => undefined)
    return
  }
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers)
    res.end()
    return
  }
  const text = JSON.stringify(reply.body)
  headers['Content-Type'] = 'application/json; charset=utf-8'
  headers['Content-Length'] = String(Buffer.byteLength(text))
  res.writeHead(reply.status, headers)
  res.end(headOnly ? undefined : text)
}

/** Narrowing helpers for request bodies; they throw 400 with the field name. */
export function asObject(body: unknown, what = 'body'): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, `${what} must be a JSON object`)
  return body as Record<string, unknown>
}

export function optionalBoolean(obj: Record<string, unknown>, key: string): boolean | undefined {
  const v = obj[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'boolean') throw new HttpError(400, `${key} must be a boolean`)
  return v
}

/** An EnabledSchema body (a dispatch's or a destination's switch): `enabled` is required. */
export function enabledOf(body: unknown): boolean {
  const enabled = optionalBoolean(asObject(body), 'enabled')
  if (enabled === undefined) throw new HttpError(400, 'enabled is required')
  return enabled
}

export function optionalString(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new HttpError(400, `${key} must be a string`)
  return v
}

export function optionalCount(obj: Record<string, unknown>, key: string): number | undefined {
  const v = obj[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new HttpError(400, `${key} must be a non-negative integer`)
  return v
}

/**
 * The fields `keys` of `obj` that `read` finds (a missing or null one is left out), read in the
 * order given, so the first bad field is the one named.
 */
export function presentFields<K extends string, V>(
  obj: Record<string, unknown>,
  keys: readonly K[],
  read: (obj: Record<string, unknown>, key: K) => V | undefined,
): Partial<Record<K, V>> {
  const found: Partial<Record<K, V>> = {}
  for (const key of keys) {
    const value = read(obj, key)
    if (value !== undefined) found[key] = value
  }
  return found
}

export function stringArray(obj: Record<string, unknown>, key: string): string[] {
  const v = obj[key]
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string'))
    throw new HttpError(400, `${key} must be an array of strings`)
  return v as string[]
}
