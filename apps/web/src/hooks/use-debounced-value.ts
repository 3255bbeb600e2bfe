import { useEffect, useState } from 'react'

/** How long a search box waits after the last key before the list searches (every list). */
export const SEARCH_DEBOUNCE_MS = 300

/** `value`, once it has stopped changing for `delayMs`: the web app's one debounce. */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return debounced
}
