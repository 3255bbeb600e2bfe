import { formatDateTime, type CourseRequest } from '@portal/shared'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { DemoCell, Fact, RequestCards, RequestStatusBadge } from './request-bits'
import { DataTable } from '@/components/ui/responsive-table'

export const NO_DEMO_AVAILABLE = 'No demo available'

/** A fulfilled request links to its dispatch. */
function DispatchLink({ request }: { request: CourseRequest }) {
  if (!request.dispatchId) return null
  return (
    <Link
      to={paths.dispatch.getHref(request.dispatchId)}
      aria-label={`View dispatch of ${request.courseTitle}`}
      className="mt-1 inline-block text-xs"
    >
      View dispatch
    </Link>
  )
}

function AdminNotes({ notes }: { notes: string }) {
  if (!notes) return null
  return (
    <p className="mt-1 text-xs text-slate-600">
      <span className="font-medium text-slate-700">Admin notes: </span>
      {notes}
    </p>
  )
}

/** docs/product-rules.md §2 My Course Requests table: Course (with its status and the admin's notes), Licenses, Request Date, Demo. */
export function MyRequestsTable({ requests }: { requests: CourseRequest[] }) {
  return (
    <DataTable caption="My course requests" headers={['Course', 'Licenses', 'Request Date', 'Demo']}>
      {requests.map((r) => (
        <tr key={r.id}>
          <td className="px-4 py-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{r.courseTitle}</span>
              <RequestStatusBadge status={r.status} />
            </div>
            <AdminNotes notes={r.adminNotes} />
            <DispatchLink request={r} />
          </td>
          <td className="px-4 py-3 text-slate-700 tabular-nums">{r.licenses}</td>
          <td className="px-4 py-3 text-slate-700">{formatDateTime(r.createdAt)}</td>
          <td className="px-4 py-3">
            <DemoCell url={r.demoUrl} courseTitle={r.courseTitle} none={NO_DEMO_AVAILABLE} />
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

/** The same rows as cards on small screens. */
export function MyRequestsCards({ requests }: { requests: CourseRequest[] }) {
  return (
    <RequestCards
      label="My course requests"
      requests={requests}
      heading="h3"
      facts={(r) => (
        <>
          <Fact label="Licenses">{r.licenses}</Fact>
          <Fact label="Request Date">{formatDateTime(r.createdAt)}</Fact>
        </>
      )}
    >
      {(r) => (
        <>
          <AdminNotes notes={r.adminNotes} />
          <DispatchLink request={r} />
          <div className="mt-3 text-sm">
            <DemoCell url={r.demoUrl} courseTitle={r.courseTitle} none={NO_DEMO_AVAILABLE} />
          </div>
        </>
      )}
    </RequestCards>
  )
}
