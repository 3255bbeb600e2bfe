/** Every companies query starts with 'companies', so one invalidation refreshes them all. */
export const companyKeys = {
  all: ['companies'] as const,
  list: () => ['companies', 'list'] as const,
  detail: (id: string) => ['companies', 'detail', id] as const,
  salesUsers: () => ['companies', 'sales-users'] as const,
}
