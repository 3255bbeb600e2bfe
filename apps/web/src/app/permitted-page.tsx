import type { Permission } from '@portal/shared'
import type { ReactNode } from 'react'
import { Navigate } from 'react-router'
import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { Authorization } from '@/features/auth/components/authorization'

/**
 * A page only roles with the permission see (docs/product-rules.md §2). The others see Access Denied,
 * or go to /dashboard where the page is an admin tool not worth announcing (`otherwise="dashboard"`).
 * With a title the content sits in the screen layout; without, the page lays itself out.
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
  children: ReactNode
}) {
  const forbidden = otherwise === 'dashboard' ? <Navigate to={paths.dashboard.getHref()} replace /> : <AccessDenied />
  return (
    <Authorization permission={permission} forbidden={forbidden}>
      {title === undefined ? children : <ContentLayout title={title}>{children}</ContentLayout>}
    </Authorization>
  )
}

/** A section under a detail page's tabs, as wide as the page. */
export function PageSection({ wide = true, children }: { wide?: boolean; children: ReactNode }) {
  return <div className={`mx-auto mt-6 w-full ${wide ? 'max-w-7xl' : 'max-w-5xl'}`}>{children}</div>
}
