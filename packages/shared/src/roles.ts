export const ROLES = ['admin', 'internal', 'sales', 'client'] as const
export type Role = (typeof ROLES)[number]
