/**
 * Small deterministic randomness. Everything the simulator generates comes from these
 * functions and the seed, never from Math.random, so equal options give equal data.
 */

export type Rng = () => number

/** mulberry32: 32-bit state, good enough spread for test data, a few ns per draw. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** murmur3 finaliser: turns nearby integers into unrelated 32-bit values. */
export function mix32(x: number): number {
  let h = x >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Hash of a seed and a few integers (e.g. hash(seed, STREAM, i)); order matters. */
export function hash(...parts: number[]): number {
  let h = 0x811c9dc5
  for (const p of parts) h = mix32(Math.imul(h ^ (p >>> 0), 0x01000193) + 0x9e3779b9)
  return h
}

/** Stable per-purpose stream ids, so adding a draw in one place never shifts another. */
export const STREAM = {
  course: 1,
  destination: 2,
  dispatchAlloc: 3,
  dispatch: 4,
  registration: 5,
  learner: 6,
  regId: 7,
  uuid: 8,
  live: 9,
  faults: 10,
  variety: 11,
} as const

export function rngFor(...parts: number[]): Rng {
  return mulberry32(hash(...parts))
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1))
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

export function chance(rng: Rng, p: number): boolean {
  return rng() < p
}

/** Picks by weight; weights need not sum to 1. */
export function weighted<T>(rng: Rng, entries: ReadonlyArray<readonly [T, number]>): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0)
  let r = rng() * total
  for (const [value, w] of entries) {
    r -= w
    if (r < 0) return value
  }
  const last = entries[entries.length - 1]
  if (!last) throw new Error('weighted pick from an empty list')
  return last[0]
}

/** In-place Fisher-Yates shuffle of the first `count` positions (partial shuffle). */
export function shuffleHead<T>(rng: Rng, items: T[], count = items.length): T[] {
  const n = Math.min(count, items.length)
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng() * (items.length - i))
    const tmp = items[i] as T
    items[i] = items[j] as T
    items[j] = tmp
  }
  return items
}

/** UUID v4 layout built from hashes, so ids look like the provider's but stay reproducible. */
export function uuidFrom(...parts: number[]): string {
  const a = hash(...parts, 0)
  const b = hex8(hash(...parts, 1))
  const c = hash(...parts, 2)
  const d = hash(...parts, 3)
  // Version nibble 4 and variant bits 10xx, as in random (v4) UUIDs.
  const variant = hex8(((c & 0x3fffffff) | 0x80000000) >>> 0)
  return `${hex8(a)}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant.slice(0, 4)}-${variant.slice(4, 8)}${hex8(d)}`
}

/** Byte -> two hex digits; table lookups beat Number#toString(16) in hot id formatting. */
const HEX = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'))

export function hex8(x: number): string {
  return (
    (HEX[x >>> 24] as string) +
    (HEX[(x >>> 16) & 255] as string) +
    (HEX[(x >>> 8) & 255] as string) +
    (HEX[x & 255] as string)
  )
}
