import type { SessionResponse, User } from '@/types/api'
import { storage } from './storage'

/** docs/product-rules.md §3: the access token, refresh token and signed-in user live in local browser storage. */
export const TOKEN_KEYS = {
  accessToken: 'portal.accessToken',
  refreshToken: 'portal.refreshToken',
  user: 'portal.user',
} as const

export type StoredSession = {
  accessToken: string | null
  refreshToken: string | null
  user: User | null
}

type Listener = () => void
const listeners = new Set<Listener>()
let cachedRaw = ''
let cached: StoredSession = { accessToken: null, refreshToken: null, user: null }

function parseUser(raw: string | null): User | null {
  if (!raw) return null
  try {
    const value: unknown = JSON.parse(raw)
    return value && typeof value === 'object' && 'id' in value && 'role' in value ? (value as User) : null
  } catch (error) {
    console.warn('Ignoring an unreadable stored user', error)
    return null
  }
}

function notify() {
  for (const listener of listeners) listener()
}

export const tokenStorage = {
  getAccessToken: () => storage.get(TOKEN_KEYS.accessToken),
  getRefreshToken: () => storage.get(TOKEN_KEYS.refreshToken),
  getUser: () => tokenStorage.read().user,

  /** A stable object while nothing changed, as useSyncExternalStore requires. */
  read(): StoredSession {
    const access = storage.get(TOKEN_KEYS.accessToken)
    const refresh = storage.get(TOKEN_KEYS.refreshToken)
    const user = storage.get(TOKEN_KEYS.user)
    const raw = JSON.stringify([access, refresh, user])
    if (raw !== cachedRaw) {
      cachedRaw = raw
      cached = { accessToken: access, refreshToken: refresh, user: parseUser(user) }
    }
    return cached
  },

  /** Login and refresh both land here; the refresh token is rotated, so always keep the new one. */
  setSession(session: SessionResponse): void {
    storage.set(TOKEN_KEYS.accessToken, session.accessToken)
    storage.set(TOKEN_KEYS.refreshToken, session.refreshToken)
    storage.set(TOKEN_KEYS.user, JSON.stringify(session.user))
    notify()
  },

  setUser(user: User): void {
    storage.set(TOKEN_KEYS.user, JSON.stringify(user))
    notify()
  },

  clear(): void {
    for (const key of Object.values(TOKEN_KEYS)) storage.remove(key)
    notify()
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    // Another tab signing in, refreshing or out changes our session too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || Object.values<string>(TOKEN_KEYS).includes(event.key)) listener()
    }
    window.addEventListener('storage', onStorage)
    return () => {
      listeners.delete(listener)
      window.removeEventListener('storage', onStorage)
    }
  },
}
