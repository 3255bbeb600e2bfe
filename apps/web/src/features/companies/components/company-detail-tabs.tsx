import { can, formatDate, formatDateTime, formatRegistrations, type CompanyDetail, type Role } from '@portal/shared'
import { TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { EmptyState } from '@/components/ui/empty-state'
import { Link } from '@/components/ui/link'
import { Tabs } from '@/components/ui/tabs'
import { paths } from '@/config/paths'
import { DataTable as Table } from '@/components/ui/responsive-table'

const td = 'px-4 py-3'
import { CompanySignIn } from './company-sign-in'

const STATUS_TONES = {
  PENDING: 'yellow',
  PROCESSED: 'blue',
  COMPLETED: 'green',
  APPROVED: 'green',
  REJECTED: 'red',
} as const

function UsersPanel({ company, canOpenUsers }: { company: CompanyDetail; canOpenUsers: boolean }) {
  if (company.users.length === 0) return <EmptyState title="No users found" />
  return (
    <Table caption="Users" headers={['Name', 'Email', 'Role', ...(canOpenUsers ? ['Actions'] : [])]}>
      {company.users.map((user) => (
        <tr key={user.id}>
          <td className={`${td} font-medium text-slate-900`}>{user.name}</td>
          <td className={td}>{user.email}</td>
          <td className={`${td} capitalize`}>{user.role}</td>
          {canOpenUsers && (
            <td className={td}>
              <Link to={paths.user.getHref(user.id)}>
                View <span className="sr-only">{user.name}</span>
              </Link>
            </td>
          )}
        </tr>
      ))}
    </Table>
  )
}

function RequestsPanel({ company }: { company: CompanyDetail }) {
  if (company.courseRequests.length === 0) return <EmptyState title="No course requests found" />
  return (
    <Table caption="Course Requests" headers={['Course', 'Requested By', 'Licenses', 'Status', 'Date']}>
      {company.courseRequests.map((request) => (
        <tr key={request.id}>
          <td className={`${td} font-medium text-slate-900`}>{request.courseTitle}</td>
          <td className={td}>{request.requestedBy}</td>
          <td className={`${td} tabular-nums`}>{request.licenses}</td>
          <td className={td}>
            <Badge tone={STATUS_TONES[request.status as keyof typeof STATUS_TONES] ?? 'neutral'}>
              {request.status}
            </Badge>
          </td>
          <td className={td}>{formatDateTime(request.createdAt)}</td>
        </tr>
      ))}
    </Table>
  )
}

function DispatchesPanel({ company }: { company: CompanyDetail }) {
  return (
    <div className="space-y-4">
      {company.scormError && (
        <div
          role="alert"
          className="flex gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
        >
          <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
          <p>{company.scormError}</p>
        </div>
      )}
      {company.dispatches.length === 0 ? (
        <EmptyState title="No dispatches found" />
      ) : (
        <Table caption="SCORM Dispatches" headers={['Course', 'Created', 'Expiry', 'Licences (used / total)']}>
          {company.dispatches.map((dispatch) => (
            <tr key={dispatch.id}>
              <td className={`${td} font-medium text-slate-900`}>{dispatch.courseTitle}</td>
              <td className={td}>{formatDate(dispatch.created)}</td>
              <td className={td}>{dispatch.expirationDate ? formatDate(dispatch.expirationDate) : 'No Expiry'}</td>
              <td className={`${td} tabular-nums`}>
                {formatRegistrations(dispatch.licensesUsed, dispatch.licensesTotal)}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  )
}

/** docs/product-rules.md §2 Company detail tabs: Users, Course Requests, SCORM Dispatches. */
export function CompanyDetailTabs({ company, role }: { company: CompanyDetail; role: Role }) {
  // A test sign-in comes back here with its id: the Sign-in tab shows what the provider sent.
  const testFlowId = useSearchParams()[0].get('sso_test')
  const [tab, setTab] = useState(testFlowId && can(role, 'sso.manage') ? 'sign-in' : 'users')
  return (
    <Tabs
      label="Company details"
      selected={tab}
      onSelect={setTab}
      items={[
        {
          id: 'users',
          label: `Users (${company.users.length})`,
          // /admin/users/{id} is an admin page (docs/product-decisions.md D9): sales get no link to an Access Denied.
          panel: <UsersPanel company={company} canOpenUsers={can(role, 'user.manage')} />,
        },
        {
          id: 'requests',
          label: `Course Requests (${company.courseRequests.length})`,
          panel: <RequestsPanel company={company} />,
        },
        {
          id: 'dispatches',
          label: `SCORM Dispatches (${company.dispatches.length})`,
          panel: <DispatchesPanel company={company} />,
        },
        // Single sign-on is the admin's (sso.manage).
        ...(can(role, 'sso.manage')
          ? [
              {
                id: 'sign-in',
                label: 'Sign-in',
                panel: <CompanySignIn companyId={company.id} users={company.users} testFlowId={testFlowId} />,
              },
            ]
          : []),
      ]}
    />
  )
}
