import { useCallback, useRef, useState } from 'react'
import type { User } from '@/types/api'
import { useSetUserStatus } from '../api/change-user'

/** docs/product-rules.md §9: a second toggle of the same user within 50 ms is a double click, not a decision. */
export const TOGGLE_GUARD_MS = 50
export const STATUS_FAILED = 'Failed to update user status.'

/** Suspend / Activate with the optimistic update, the roll-back and the 50 ms guard (docs/product-rules.md §4). */
export function useStatusToggle() {
  const { mutate } = useSetUserStatus()
  const lastToggle = useRef(new Map<string, number>())
  const [error, setError] = useState<string | null>(null)

  const toggle = useCallback(
    (user: Pick<User, 'id' | 'status'>) => {
      const now = Date.now()
      const last = lastToggle.current.get(user.id)
      if (last !== undefined && now - last < TOGGLE_GUARD_MS) return
      lastToggle.current.set(user.id, now)
      setError(null)
      const status = user.status === 'active' ? 'suspended' : 'active'
      mutate({ id: user.id, status, previous: user.status }, { onError: () => setError(STATUS_FAILED) })
    },
    [mutate],
  )

  return { toggle, error, clearError: () => setError(null) }
}
