import type { LogNavigationBody } from '@portal/shared'
import { api } from '@/lib/api-client'
import { ApiError } from '@/lib/api-error'
import { storage } from '@/lib/storage'
import { tokenStorage } from '@/lib/token-storage'
import type { LogActionBody } from '@/types/api'

/**
 * docs/product-decisions.md D27: UI events that fail to send are kept in browser storage and sent later,
 * so a brief network loss loses none. The queue is bounded; the oldest events go first.
 */
export const ACTIVITY_QUEUE_KEY = 'portal.activityQueue'
export const MAX_QUEUED_EVENTS = 200

export type ActivityEvent = { kind: 'action'; body: LogActionBody } | { kind: 'navigation'; body: LogNavigationBody }

type QueuedEvent = ActivityEvent & { id: string; userId: string; queuedAt: string }

const ENDPOINTS = { action: '/api/logs/action', navigation: '/api/logs/navigation' } as const

const post = (event: ActivityEvent) => api.post<unknown>(ENDPOINTS[event.kind], event.body)

/** Network trouble, timeouts, rate limits and server errors pass; other refusals will not. */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500
}

/** Fire-and-forget (docs/product-rules.md §7): never throws; failures go to the console and, if worth it, the queue. */
export async function sendActivityEvent(event: ActivityEvent): Promise<void> {
  try {
    await post(event)
  } catch (error) {
    const userId = tokenStorage.getUser()?.id
    if (isRetryable(error) && userId) {
      enqueue({ ...event, id: newId(), userId, queuedAt: new Date().toISOString() })
      console.warn(`Activity event (${event.kind}) not sent; queued for later`, error)
    } else {
      console.warn(`Activity event (${event.kind}) not recorded`, error)
    }
    return
  }
  await flushActivityQueue()
}

let flushing: Promise<void> | null = null

/** Sends what is queued for the signed-in user, oldest first; stops at the first retryable failure. */
export function flushActivityQueue(): Promise<void> {
  flushing ??= drain().finally(() => {
    flushing = null
  })
  return flushing
}

async function drain(): Promise<void> {
  const userId = tokenStorage.getUser()?.id
  if (!userId || !tokenStorage.getAccessToken()) return
  // Another account's events wait for that account: the server stamps the sender as the actor.
  for (const entry of readQueue().filter((e) => e.userId === userId)) {
    try {
      await post(entry)
    } catch (error) {
      if (isRetryable(error)) {
        console.warn('Queued activity events still cannot be sent', error)
        return
      }
      console.warn('Dropping a queued activity event the server refused', error)
    }
    writeQueue(readQueue().filter((e) => e.id !== entry.id))
  }
}

export function readQueue(): QueuedEvent[] {
  const raw = storage.get(ACTIVITY_QUEUE_KEY)
  if (!raw) return []
  try {
    const value: unknown = JSON.parse(raw)
    return Array.isArray(value) ? (value as QueuedEvent[]).filter((e) => e && e.id && e.kind && e.body) : []
  } catch (error) {
    console.warn('Discarding an unreadable activity queue', error)
    return []
  }
}

function writeQueue(queue: QueuedEvent[]): void {
  if (queue.length === 0) storage.remove(ACTIVITY_QUEUE_KEY)
  else storage.set(ACTIVITY_QUEUE_KEY, JSON.stringify(queue))
}

function enqueue(entry: QueuedEvent): void {
  writeQueue([...readQueue(), entry].slice(-MAX_QUEUED_EVENTS))
}

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}
