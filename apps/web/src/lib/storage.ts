/**
 * localStorage that never throws: when storage is blocked or full, values live in memory
 * for this tab, so a storage problem costs persistence, not the session.
 */
const memory = new Map<string, string>()

function backend(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null // reading window.localStorage itself throws when storage is blocked
  }
}

export const storage = {
  get(key: string): string | null {
    try {
      const local = backend()
      if (local) return local.getItem(key)
    } catch (error) {
      console.warn(`Could not read "${key}" from browser storage`, error)
    }
    return memory.get(key) ?? null
  },
  set(key: string, value: string): void {
    try {
      const local = backend()
      if (local) return local.setItem(key, value)
    } catch (error) {
      console.warn(`Could not write "${key}" to browser storage`, error)
    }
    memory.set(key, value)
  },
  remove(key: string): void {
    memory.delete(key)
    try {
      backend()?.removeItem(key)
    } catch (error) {
      console.warn(`Could not remove "${key}" from browser storage`, error)
    }
  },
}
