import { USER_FORM_MESSAGES, logDetailsText, type LogEntry } from '@portal/shared'
import { Pencil, UserCheck, UserX } from 'lucide-react'
import { Banner } from '@/components/ui/banner'
import { DetailLayout } from '@/components/layouts/detail-layout'
import { Link } from '@/components/ui/link'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { ApiError, errorMessage } from '@/lib/api-error'
import { useUserActivity, useUserDetail } from '../api/get-user'
import { useStatusToggle } from '../hooks/use-status-toggle'
import { RoleBadge, StatusBadge } from './user-badges'
import { createdDay, lastLoginText, shownUsername } from './users-table'
import { detailRow } from '@/components/ui/detail-row'

const Row = detailRow('grid grid-cols-3 gap-2 py-2', 'text-sm text-slate-600', 'col-span-2 text-sm text-slate-900')

function RecentActivity({ userId }: { userId: string }) {
  const { data, error, isPending } = useUserActivity(userId)
  if (isPending) return <Spinner label="Loading activity..." />
  if (error) return <Banner variant="error">{errorMessage(error, 'Failed to fetch recent activity')}</Banner>
  if (data.length === 0) return <p className="text-sm text-slate-600">No recent activity.</p>
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {data.map((log: LogEntry) => (
        <li key={log.id} className="flex flex-col gap-1 px-4 py-3 text-sm md:flex-row md:gap-4">
          <span className="w-44 shrink-0 text-slate-600 tabular-nums">{lastLoginText(log.createdAt)}</span>
          <span className="w-56 shrink-0 font-medium text-slate-900">{log.action}</span>
          <span className="break-all text-slate-700">{logDetailsText(log.details)}</span>
        </li>
      ))}
    </ul>
  )
}

/** docs/product-decisions.md D9 /admin/users/{id}: one user's profile, status, company, last login and recent activity. */
export function UserProfile({ id, currentUserId }: { id: string; currentUserId: string }) {
  const { data: user, error, isPending } = useUserDetail(id)
  const status = useStatusToggle()
  const self = id === currentUserId
  const title = user ? user.name || shownUsername(user) : 'User Details'

  return (
    <DetailLayout
      title={title}
      above={[{ label: 'Settings', href: paths.settings.getHref() }]}
      className="mx-auto w-full max-w-5xl space-y-6"
      align="items-center"
      actions={
        user && (
          <div className="flex gap-2">
            <Link
              to={`${paths.settings.getHref()}?edit=${encodeURIComponent(user.id)}`}
              className="inline-flex h-8 items-center gap-1 rounded-md border border-slate-300 px-3 text-sm hover:no-underline"
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit
            </Link>
            <Button
              size="sm"
              variant="secondary"
              disabled={self}
              title={self ? 'Cannot change own status' : undefined}
              onClick={() => status.toggle(user)}
            >
              {user.status === 'active' ? (
                <UserX aria-hidden="true" className="size-4" />
              ) : (
                <UserCheck aria-hidden="true" className="size-4" />
              )}
              {user.status === 'active' ? 'Suspend' : 'Activate'}
            </Button>
          </div>
        )
      }
    >
      {isPending ? (
        <Spinner label="Loading user..." />
      ) : error || !user ? (
        <Banner variant="error">
          {error instanceof ApiError && error.status === 404
            ? USER_FORM_MESSAGES.userNotFound
            : errorMessage(error, 'Failed to fetch user')}
        </Banner>
      ) : (
        <>
          {status.error && <Banner variant="error">{status.error}</Banner>}
          <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white px-4 shadow-xs">
            <Row label="Email">{user.email || 'No Email'}</Row>
            <Row label="Username">{shownUsername(user)}</Row>
            <Row label="Role">
              <RoleBadge role={user.role} />
            </Row>
            <Row label="Status">
              <StatusBadge status={user.status} />
            </Row>
            <Row label="Company">{user.destinationName || '-'}</Row>
            <Row label="Created">{createdDay(user.createdAt)}</Row>
            <Row label="Last Login">{lastLoginText(user.lastLogin)}</Row>
          </dl>
          <section aria-labelledby="recent-activity" className="space-y-3">
            <h2 id="recent-activity" className="text-lg font-semibold text-slate-900">
              Recent Activity
            </h2>
            <RecentActivity userId={user.id} />
          </section>
        </>
      )}
    </DetailLayout>
  )
}
