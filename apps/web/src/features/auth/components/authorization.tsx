import { can, type Permission } from '@portal/shared'
import type { ReactNode } from 'react'
import { useAuth } from './auth-context'

/**
 * Shows children only to roles with the permission (docs/product-rules.md §6 via the shared `can()`).
 * Convenience only: the server enforces the same table on every call.
 */
export function Authorization({
  permission,
  forbidden,
  children,
}: {
  permission: Permission
  forbidden: ReactNode
  children: ReactNode
}) {
  const { user } = useAuth()
  return can(user?.role, permission) ? children : forbidden
}
