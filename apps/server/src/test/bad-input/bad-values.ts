import { typesOf, type Field, type JsonSchema } from './openapi-walk'

/** The classes of each a list of variants an attacker would try on any input. */
export const CLASSES = ['type', 'surrogate', 'nul', 'long', 'odd', 'number', 'date', 'deep', 'shape'] as const
export type BadClass = (typeof CLASSES)[number]

/**
 * One bad input. `json` is the raw JSON text placed in a body (so `1e999`, 5,000 levels and
 * lone-surrogate escapes arrive exactly as sent); `query` the raw, already percent-encoded
 * form for a query parameter or a path segment (`null`: the name alone, no `=`).
 */
export interface BadValue {
  cls: BadClass
  label: string
  json: string
  query: { raw: string | null; repeat?: number; bracket?: string } | null
  /** Megabytes of work for the server (and the suite): sent for one input per operation. */
  heavy?: boolean
}

/** UTF-8 percent-encoding that also writes lone surrogates (as WTF-8), which encodeURIComponent refuses. */
export function pct(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('')
    } else {
      out += encodeURIComponent(ch)
    }
  }
  return out
}

const str = (cls: BadClass, label: string, text: string): BadValue => ({
  cls,
  label,
  json: JSON.stringify(text), // ES2019: a lone surrogate is written as its \uXXXX escape
  query: { raw: pct(text) },
})
const raw = (cls: BadClass, label: string, json: string, query: BadValue['query'] = null): BadValue => ({
  cls,
  label,
  json,
  query,
})

const nested = (open: string, close: string, levels: number) => `${open.repeat(levels)}1${close.repeat(levels)}`
// Built once: the same megabytes for every input that gets them.
const HUGE_STRING = JSON.stringify('y'.repeat(1_200_000))
const HUGE_QUERY = 'z'.repeat(70_000)
const WIDE_OBJECT = `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`
const LONG_ARRAY = `[${'1,'.repeat(99_999)}1]`
const DEEP_OBJECTS = nested('{"a":', '}', 5000)
const DEEP_ARRAYS = nested('[', ']', 5000)

function maxLengthOf(schema: JsonSchema): number | null {
  const limits = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]
    .map((s) => s.maxLength)
    .filter((n): n is number => n !== undefined)
  return limits.length > 0 ? Math.max(...limits) : null
}

function numberLimits(schema: JsonSchema): number[] {
  return [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => [
    ...(s.minimum !== undefined ? [s.minimum - 1, s.minimum - 0.5] : []),
    ...(s.maximum !== undefined ? [s.maximum + 1, s.maximum + 0.5] : []),
  ])
}

/** Every variant of every class for this input; the suite samples from them. */
export function variantsFor(field: Field): Record<BadClass, BadValue[]> {
  const schema = field.schema
  const types = typesOf(schema)
  const max = maxLengthOf(schema)
  const over = Math.max((max ?? 10_000) + 1, 1)
  const maxItems = [schema, ...(schema.anyOf ?? [])].find((s) => s.maxItems !== undefined)?.maxItems
  const enumValues = [schema, ...(schema.anyOf ?? [])].flatMap((s) => s.enum ?? []).filter((v) => typeof v === 'string')

  return {
    type: [
      raw('type', 'a number', '123', { raw: '123' }),
      raw('type', 'true', 'true', { raw: 'true' }),
      raw('type', 'null', 'null', { raw: null }),
      raw('type', 'an empty array', '[]', { raw: '', repeat: 2 }),
      raw('type', 'an empty object', '{}', { raw: '1', bracket: 'a' }),
      raw('type', 'an array of strings', '["a","b"]', { raw: 'a', repeat: 2 }),
      raw('type', 'an operator object', '{"$ne":null,"$gt":""}', { raw: '', bracket: '$ne' }),
      raw('type', 'an empty string', '""', { raw: '' }),
      raw('type', 'false', 'false', { raw: 'false' }),
    ].filter((v) => !(types.has('string') && v.json === '""')),
    surrogate: [
      str('surrogate', 'a lone high surrogate', '\ud800'),
      str('surrogate', 'a lone low surrogate', '\udfff'),
      str('surrogate', 'a high surrogate at the end', 'ok\ud83d'),
      str('surrogate', 'a low surrogate first', '\udc00ok'),
      str('surrogate', 'two high surrogates', 'a\ud800\ud800b'),
      raw('surrogate', 'a surrogate as a key', '{"\\ud800":1}', { raw: '1', bracket: '%ED%A0%80' }),
    ],
    nul: [str('nul', 'a NUL inside', 'a\u0000b'), str('nul', 'only NUL', '\u0000')],
    long: [
      str('long', `${over} ASCII characters`, 'x'.repeat(over)),
      str('long', `${over} two-byte characters`, 'é'.repeat(over)),
      str('long', `${over} emoji`, '😀'.repeat(over)),
      // Past the body limit (413) or far past any query bound.
      { ...raw('long', '1.2 MiB', HUGE_STRING, { raw: HUGE_QUERY }), heavy: true },
    ],
    odd: [
      '',
      ' ',
      '\t\r\n',
      '\u202e\u202d',
      '\ufeff',
      '\uffff',
      '\u{10ffff}',
      'e\u0301\u0301\u0301',
      "' or 1=1 --",
      '%00',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      '=HYPERLINK("http://x")',
      '\\',
      '__proto__',
      'constructor',
      ...enumValues.slice(0, 1).flatMap((v) => [v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase(), ` ${v} `]),
    ].map((text) => str('odd', JSON.stringify(text), text)),
    number: [
      ...['1e999', '-1e999', '2147483648', '-2147483649', '9007199254740993', '1e308', '-0', '0.5', '-1', '5e-324'].map(
        (n) => raw('number', n, n, { raw: n }),
      ),
      ...['Infinity', 'NaN', '0x10', ' 1', '+1', '1_000', '1e3'].map((n) => str('number', `"${n}"`, n)),
      ...numberLimits(schema).map((n) => raw('number', `bound ${n}`, String(n), { raw: String(n) })),
    ],
    date: [
      '0000-01-01',
      '0999-12-31',
      '9999-12-31',
      '10000-01-01',
      '-271821-04-20',
      '+275760-09-13',
      '275760-09-14',
      '2026-02-30',
      '2026-13-01',
      '9999-12-31T23:59:59-05:00',
      '0000-01-01T00:00:00Z',
      '1969-12-31T23:59:59.999Z',
      'Sat, 01 Jan 0000 00:00:00 GMT',
    ].map((d) => str('date', d, d)),
    deep: [
      raw('deep', '5,000 nested objects', DEEP_OBJECTS, { raw: '1', bracket: 'a][a][a][a][a][a][a][a' }),
      raw('deep', '5,000 nested arrays', DEEP_ARRAYS, { raw: '1', repeat: 1000 }),
      raw('deep', '33 nested objects', nested('{"a":', '}', 33), { raw: '1', bracket: 'a][b' }),
      {
        ...raw('deep', 'an object of 20,000 keys', WIDE_OBJECT),
        heavy: true,
      },
    ],
    shape: [
      ...(maxItems !== undefined
        ? [
            raw(
              'shape',
              `${maxItems + 1} items`,
              JSON.stringify(Array.from({ length: maxItems + 1 }, (_, i) => `i${i}`)),
              {
                raw: 'i',
                repeat: maxItems + 1,
              },
            ),
          ]
        : []),
      { ...raw('shape', '100,000 items', LONG_ARRAY, { raw: 'x', repeat: 3000 }), heavy: true },
      raw('shape', 'items of every type', '[1,"a",null,true,{},[]]', { raw: 'a', repeat: 5 }),
      raw('shape', 'a prototype key', '{"__proto__":{"polluted":true}}', { raw: '1', bracket: '__proto__' }),
    ],
  }
}

/**
 * A deterministic sample: every class of every input, `perClass` variants each. The first
 * variant of a class (its sharpest: the lone high surrogate, maxLength + 1, 1e999, year 0,
 * 5,000 levels) always; the others rotated by the input's position, so that across all
 * inputs every variant is sent. Heavy variants only when `heavy` (one input per operation).
 */
export function sample(all: Record<BadClass, BadValue[]>, perClass: number, seed: number, heavy: boolean): BadValue[] {
  const out: BadValue[] = []
  for (const cls of CLASSES) {
    const [first, ...rest] = all[cls].filter((v) => heavy || !v.heavy)
    if (!first) continue
    out.push(first)
    for (let i = 0; i < Math.min(perClass - 1, rest.length); i += 1) {
      out.push(rest[(seed * (perClass - 1) + i) % rest.length]!)
    }
  }
  return out
}

/** A valid value for a schema (the suite fills required fields around the one it spoils). */
export function exampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  const first = schema.anyOf?.[0] ?? schema.oneOf?.[0]
  if (first) return exampleOf(first)
  if (schema.enum) return schema.enum[0]
  const type = [schema.type ?? 'string'].flat()[0]
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000001'
      if (schema.pattern?.includes('\\d{3}-')) return '2026-01-15'
      if (schema.pattern?.startsWith('^/')) return '/example'
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1))
    case 'integer':
    case 'number':
      return schema.minimum ?? 0
    case 'boolean':
      return true
    case 'array':
      // As many items as the schema asks for (a required list of ids needs one).
      return Array.from({ length: schema.minItems ?? 0 }, () =>
        exampleOf(Array.isArray(schema.items) ? (schema.items[0] ?? {}) : (schema.items ?? {})),
      )
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const name of schema.required ?? []) out[name] = exampleOf(schema.properties?.[name] ?? {})
      return out
    }
    default:
      return null
  }
}
