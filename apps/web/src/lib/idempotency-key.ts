import { useCallback, useMemo } from 'react'

/** 32 random hex digits; crypto.getRandomValues works on plain http too, unlike randomUUID. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

type Held = { values: string; key: string }

function read(slot: string): Held | null {
  try {
    const held = JSON.parse(sessionStorage.getItem(slot) ?? 'null') as Partial<Held> | null
    return typeof held?.values === 'string' && typeof held.key === 'string' ? (held as Held) : null
  } catch {
    return null
  }
}

function write(slot: string, held: Held | null) {
  try {
    if (held) sessionStorage.setItem(slot, JSON.stringify(held))
    else sessionStorage.removeItem(slot)
  } catch {
    // Storage refused (private mode, full): the key then lives as long as this call.
  }
}

/**
 * The Idempotency-Key of a form's submission (docs/decisions.md): the same while the values sent
 * stay the same and no try has succeeded (the user retrying after an error, whose first try the
 * server may have carried out), also after the form was closed and opened again in this tab; a
 * new one as soon as the values change. `succeeded` forgets it, so the same values later are a
 * new submission. The server answers a retry as the first try's success, not as a conflict.
 */
export function useSubmissionKey(form: string) {
  const slot = `portal.submission.${form}`
  const keyFor = useCallback(
    (values: unknown) => {
      const text = JSON.stringify(values)
      const held = read(slot)
      if (held?.values === text) return held.key
      const key = newIdempotencyKey()
      write(slot, { values: text, key })
      return key
    },
    [slot],
  )
  const succeeded = useCallback(() => write(slot, null), [slot])
  return useMemo(() => ({ keyFor, succeeded }), [keyFor, succeeded])
}
