import { useEffect, useRef } from 'react'
import type { UiEventHandler } from '@/types/ui-event'

/**
 * Records that a screen was viewed: once per mount, with the details of its first render (a
 * later filter or page change is not a new view).
 */
export function useViewedEvent(onEvent: UiEventHandler, ...event: Parameters<UiEventHandler>) {
  const viewed = useRef(false)
  useEffect(() => {
    if (viewed.current) return
    viewed.current = true
    onEvent(...event)
  })
}
