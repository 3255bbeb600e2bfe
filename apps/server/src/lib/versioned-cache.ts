/**
 * Aggregates cached per database handle, key and data version. A version is read in
 * the same statement as the aggregate it belongs to and only grows (migration 0007), so an
 * entry is served only while the data it was counted from is still the committed state. Bounded:
 * the least recently used entry goes first.
 */
export interface VersionedCache<T> {
  get(key: string, version: number | null): T | undefined
  set(key: string, version: number | null, value: T): void
  /**
   * The entry for `key` if it was stored at `version`, else `load()`'s value, stored under the
   * version `load` read it at; with the version the returned value belongs to.
   */
  read(
    key: string,
    version: number | null,
    load: () => Promise<{ value: T; version: number | null }>,
  ): Promise<{ value: T; version: number | null }>
}

export function createVersionedCache<T>(maxEntries: number): VersionedCache<T> {
  const entries = new Map<string, { version: number; value: T }>()
  const cache: VersionedCache<T> = {
    get(key, version) {
      const entry = entries.get(key)
      if (version === null || !entry || entry.version !== version) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    set(key, version, value) {
      if (version === null) return
      const entry = entries.get(key)
      // A slower request may finish after a faster one that saw newer data: keep the newer.
      if (entry && entry.version > version) return
      entries.delete(key)
      entries.set(key, { version, value })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
    },
    async read(key, version, load) {
      const cached = cache.get(key, version)
      if (cached !== undefined) return { value: cached, version }
      const loaded = await load()
      cache.set(key, loaded.version, loaded.value)
      return loaded
    },
  }
  return cache
}

/**
 * A `read`'s load from a statement that answers its figures and, beside them, the version it read
 * them at: the figures are the value, the version the one it is stored under.
 */
export async function counted<R extends { version: number | null }>(
  answer: Promise<R>,
): Promise<{ value: Omit<R, 'version'>; version: number | null }> {
  const { version, ...value } = await answer
  return { value, version }
}

/** One cache per database handle (a server, a test's database), made on first use. */
export function cachePerDatabase<T>(maxEntries: number): (db: object) => VersionedCache<T> {
  const caches = new WeakMap<object, VersionedCache<T>>()
  return (db) => {
    let cache = caches.get(db)
    if (!cache) {
      cache = createVersionedCache<T>(maxEntries)
      caches.set(db, cache)
    }
    return cache
  }
}

/**
 * How a service reads: `cache: false` reads every page afresh (READ_CACHE=false; the bench's
 * cold rows).
 */
export interface ReadCacheOptions {
  cache?: boolean
  /**
   * Search statements hide their values from the planner so one generic plan serves every term
   * (`DispatchesRepositoryOptions.reusePlans`): on PostgreSQL, whose pool connections each
   * prepare the statement.
   */
  reusePlans?: boolean
}
