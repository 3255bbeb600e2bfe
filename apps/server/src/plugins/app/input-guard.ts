import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { MAX_INPUT_DEPTH } from '@portal/shared'
import { AppError } from '../../lib/app-error'

export interface InputProblem {
  /** Where, as Ajv names it (`tags/0`, `details/a/b`); '' for the whole part. */
  field: string
  message: string
}

// A UTF-16 code unit of a surrogate pair standing alone: with the `u` flag a well-formed pair
// is one code point, so only lone halves match.
const LONE_SURROGATE = /\p{Cs}/u

function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'must not contain a NUL character'
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate (invalid Unicode)'
  return null
}

/**
 * The first value of a parsed body, query or params that no route can take, whatever its
 * schema says: text PostgreSQL cannot store (NUL; a lone surrogate, which jsonb refuses and
 * the pg driver silently turns into U+FFFD), nesting beyond MAX_INPUT_DEPTH, or a number
 * that is not finite (JSON's `1e999` parses as Infinity; so does Ajv's coercion of `?page=1e999`).
 */
export function findInputProblem(root: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const stack: [unknown, string, number][] = [[root, '', 0]]
  while (stack.length > 0) {
    const [value, field, depth] = stack.pop()!
    if (typeof value === 'string') {
      const problem = textProblem(value)
      if (problem) return { field, message: problem }
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { field, message: 'must be a finite number' }
    } else if (value !== null && typeof value === 'object') {
      if (depth >= maxDepth) return { field, message: `must not be nested more than ${maxDepth} levels deep` }
      // Reversed, so the stack reports the first field of an object first.
      for (const [key, inner] of Object.entries(value).reverse()) {
        // The answer names the field without echoing what made it unreadable.
        const shown = key.replace(/\p{Cs}|\0/gu, '\ufffd')
        const child = field ? `${field}/${shown}` : shown
        const keyProblem = textProblem(key)
        if (keyProblem) return { field: child, message: `has a name that ${keyProblem}` }
        stack.push([inner, child, depth + 1])
      }
    }
  }
  return null
}

const PARTS = [
  ['params', (r: FastifyRequest) => r.params],
  ['querystring', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
] as const

function check(request: FastifyRequest): void {
  for (const [part, read] of PARTS) {
    const problem = findInputProblem(read(request))
    if (problem) {
      const where = problem.field ? `${part}/${problem.field}` : part
      throw new AppError('VALIDATION_FAILED', `${where} ${problem.message}.`, {
        details: [{ field: problem.field || part, message: problem.message }],
      })
    }
  }
}

/**
 * One guard for every route, present and future, instead of a rule per field.
 * Before validation it refuses what no schema can express (above); after validation it looks
 * again, because Ajv's type coercion can itself make a non-finite number out of a query string.
 * A refused request is a 400 naming the field, before any handler, query or provider call.
 */
export const inputGuardPlugin = fp(
  async (app) => {
    app.addHook('preValidation', async (request) => check(request))
    app.addHook('preHandler', async (request) => check(request))
  },
  { name: 'input-guard' },
)
