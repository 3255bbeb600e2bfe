/** Every course query starts with 'courses', so one invalidation refreshes them all. */
export const courseKeys = {
  all: ['courses'] as const,
  list: () => ['courses', 'list'] as const,
  detail: (id: string) => ['courses', 'detail', id] as const,
}
