import type { Permission } from '@portal/shared'
import type { ReactNode } from 'react'
import { Navigate } from 'react-router'
import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import type { User } from '@/types/api'

/**
 * A page only roles with the permission see (docs/product-rules.md §2). The others see Access Denied,
 * or go to /dashboard where the page is an admin tool not worth announcing (`otherwise="dashboard"`).
 * With a title the content sits in the screen layout; without, the page lays itself out. The
 * content may be a function of the signed-in user, for pages that pass on the role.
 */
export function PermittedPage({
  permission,
  otherwise = 'denied',
  title,
  children,
}: {
  permission: Permission
  otherwise?: 'denied' | 'dashboard'
  title?: string
  children: ReactNode | ((user: User) => ReactNode)
}) {
  const user = useUser()
  const content = typeof children === 'function' ? children(user) : children
  const forbidden = otherwise === 'dashboard' ? <Navigate to={paths.dashboard.getHref()} replace /> : <AccessDenied />
  return (
    <Authorization permission={permission} forbidden={forbidden}>
      {title === undefined ? content : <ContentLayout title={title}>{content}</ContentLayout>}
    </Authorization>
  )
}

/** A section under a detail page's tabs, as wide as the page. */
export function PageSection({ wide = true, children }: { wide?: boolean; children: ReactNode }) {
  return <div className={`mx-auto mt-6 w-full ${wide ? 'max-w-7xl' : 'max-w-5xl'}`}>{children}</div>
}
