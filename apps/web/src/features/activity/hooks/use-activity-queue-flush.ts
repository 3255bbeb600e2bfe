import { useEffect } from 'react'
import { flushActivityQueue } from '../api/activity-queue'

export const FLUSH_INTERVAL_MS = 60_000

/** Sends queued events at start, when the browser comes back online, and every minute. */
export function useActivityQueueFlush(): void {
  useEffect(() => {
    const flush = () => void flushActivityQueue()
    flush()
    window.addEventListener('online', flush)
    const timer = setInterval(flush, FLUSH_INTERVAL_MS)
    return () => {
      window.removeEventListener('online', flush)
      clearInterval(timer)
    }
  }, [])
}
