import type { Role, User, UserStatus } from '@portal/shared'

export interface UserRow {
  id: string
  email: string
  username: string
  name: string | null
  role: string
  companyId: string | null
  companyName: string | null
  status: string
  createdAt: Date
  lastLogin: Date | null
}

/** The one place a user row becomes the docs/product-rules.md §3 user: no hash, no token fields. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    name: row.name,
    role: row.role as Role,
    companyId: row.companyId,
    destinationId: row.companyId,
    destinationName: row.companyName,
    status: row.status as UserStatus,
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin?.toISOString() ?? null,
  }
}
