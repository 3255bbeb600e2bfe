import { useCallback, useEffect, useState } from 'react'

export type TimedMessage = { text: string; variant: 'success' | 'error' }

/**
 * A message that clears itself after `ms` (docs/product-rules.md §9 success banners: 3 s or 5 s). Showing a new
 * message restarts the timer.
 */
export function useTimedMessage(ms: number) {
  const [message, setMessage] = useState<TimedMessage | null>(null)

  useEffect(() => {
    if (!message) return
    const timer = setTimeout(() => setMessage(null), ms)
    return () => clearTimeout(timer)
  }, [message, ms])

  const show = useCallback((text: string, variant: TimedMessage['variant'] = 'success') => {
    setMessage({ text, variant })
  }, [])
  const clear = useCallback(() => setMessage(null), [])

  return { message, show, clear }
}
