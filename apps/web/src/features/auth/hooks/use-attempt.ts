import { useState } from 'react'

/**
 * A sign-in or set-up step the user sends: pending while it runs, its failure shown in words
 * and the step open to be sent again. A success leaves it pending, as the screen moves on.
 */
export function useAttempt() {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const attempt = async (action: () => Promise<unknown>, failed: (failure: unknown) => string) => {
    setPending(true)
    setError(null)
    try {
      await action()
    } catch (failure) {
      setError(failed(failure))
      setPending(false)
    }
  }
  const reset = () => {
    setError(null)
    setPending(false)
  }
  return { pending, error, setError, attempt, reset }
}
