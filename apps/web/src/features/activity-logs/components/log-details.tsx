import { logDetailsText } from '@portal/shared'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** "courseTitle" → "Course title", "ipAddress" → "Ip address". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** One value as short text: lists joined, nested objects as "key: value" pairs. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-'
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(valueText).join(', ')
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${humanizeKey(key)}: ${valueText(inner)}`)
      .join('; ')
  }
  return String(value)
}

const isPlainObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A log row's details as readable text. A string is its own message (docs/product-rules.md §3); an
 * object with only a message reads as that message; any other object reads as labelled values,
 * with the JSON one click away. React escapes every piece: nothing is rendered as markup.
 */
export function LogDetails({ details }: { details: unknown }) {
  if (!isPlainObject(details)) return <span className="break-words">{logDetailsText(details)}</span>
  const entries = Object.entries(details)
  if (entries.length === 0) return <span>{logDetailsText(details)}</span>
  if (entries.length === 1 && entries[0]![0] === 'message' && typeof entries[0]![1] === 'string') {
    return <span className="break-words">{entries[0]![1]}</span>
  }
  return (
    <div className="min-w-0">
      <dl className="space-y-0.5">
        {entries.map(([key, value]) => (
          <div key={key} className="break-words">
            <dt className="inline text-slate-600">{humanizeKey(key)}: </dt>
            <dd className="inline text-slate-900">{valueText(value)}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-1">
        <summary className="cursor-pointer text-xs font-medium text-blue-700 hover:underline">JSON</summary>
        <pre className="mt-1 max-w-full overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-all text-slate-700">
          {logDetailsText(details)}
        </pre>
      </details>
    </div>
  )
}
