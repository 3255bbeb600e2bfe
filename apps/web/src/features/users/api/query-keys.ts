/** Every users query starts with 'users', so one invalidation refreshes them all. */
export const userKeys = {
  all: ['users'] as const,
  list: () => ['users', 'list'] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  activity: (id: string) => ['users', 'activity', id] as const,
  destinations: () => ['users', 'destinations'] as const,
}
