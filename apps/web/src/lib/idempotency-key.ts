import { useCallback, useRef } from 'react'

/** 32 random hex digits; crypto.getRandomValues works on plain http too, unlike randomUUID. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The Idempotency-Key of a form's submission: the same while the values sent stay the same (the
 * user retrying after an error, whose first try the server may have carried out), a new one as
 * soon as they change (a different submission). The server answers a retry as the first try's
 * success instead of a conflict with itself (docs/decisions.md).
 */
export function useSubmissionKey(): (values: unknown) => string {
  const last = useRef<{ values: string; key: string } | null>(null)
  return useCallback((values: unknown) => {
    const text = JSON.stringify(values)
    if (last.current?.values !== text) last.current = { values: text, key: newIdempotencyKey() }
    return last.current.key
  }, [])
}
