/** The fields of `from` named in `keys` that are set (neither undefined nor absent). */
export function definedFields<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {}
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key]
  return picked
}
