import { NOT_AVAILABLE, formatDateTime, type CourseRequest } from '@portal/shared'
import { Pencil } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DemoCell, Fact, RequestCards, RequestStatusBadge } from './request-bits'
import { DataTable } from '@/components/ui/responsive-table'

export const NO_DEMO = 'No demo'
const COLUMNS = ['Course', 'Requestor', 'Company', 'Licenses', 'Status', 'Date', 'Demo', 'Actions']

type Props = { requests: CourseRequest[]; canEdit: boolean; onEdit: (request: CourseRequest) => void }

function Requestor({ request }: { request: CourseRequest }) {
  return (
    <>
      <div className="text-slate-900">{request.userName || request.userEmail || NOT_AVAILABLE}</div>
      {request.userName && request.userEmail && <div className="text-xs text-slate-600">{request.userEmail}</div>}
    </>
  )
}

/** docs/product-rules.md §2 Course Requests table (admin and sales); admins edit, sales only view. */
export function AdminRequestsTable({ requests, canEdit, onEdit }: Props) {
  return (
    <DataTable caption="Course requests" headers={COLUMNS} nowrapHeaders>
      {requests.map((r) => (
        <tr key={r.id}>
          {/* Wide enough for a course name on two lines at most. */}
          <td className="min-w-48 px-4 py-3 font-medium text-slate-900">{r.courseTitle}</td>
          <td className="px-4 py-3">
            <Requestor request={r} />
          </td>
          <td className="px-4 py-3 text-slate-700">{r.companyName || NOT_AVAILABLE}</td>
          <td className="px-4 py-3 text-slate-700 tabular-nums">{r.licenses}</td>
          <td className="px-4 py-3">
            <RequestStatusBadge status={r.status} />
          </td>
          <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(r.createdAt)}</td>
          <td className="px-4 py-3 whitespace-nowrap">
            <DemoCell url={r.demoUrl} courseTitle={r.courseTitle} none={NO_DEMO} />
          </td>
          <td className="px-4 py-3">
            {canEdit ? (
              <Button size="sm" variant="secondary" onClick={() => onEdit(r)} aria-label={`Edit: ${r.courseTitle}`}>
                <Pencil aria-hidden="true" className="size-4" />
                Edit
              </Button>
            ) : (
              <span className="text-slate-500">View Only</span>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

/** Small screens: cards with the requestor's notes, and Edit Request for admins. */
export function AdminRequestsCards({ requests, canEdit, onEdit }: Props) {
  return (
    <RequestCards
      label="Course requests"
      requests={requests}
      heading="h2"
      facts={(r) => (
        <>
          <Fact label="Requestor" plain>
            <Requestor request={r} />
          </Fact>
          <Fact label="Company">{r.companyName || NOT_AVAILABLE}</Fact>
          <Fact label="Licenses">{r.licenses}</Fact>
          <Fact label="Date">{formatDateTime(r.createdAt)}</Fact>
        </>
      )}
    >
      {(r) => (
        <>
          {r.notes && (
            <p className="mt-2 text-sm text-slate-700">
              <span className="font-medium">Notes: </span>
              {r.notes}
            </p>
          )}
          <div className="mt-3 flex items-center justify-between gap-2 text-sm">
            <DemoCell url={r.demoUrl} courseTitle={r.courseTitle} none={NO_DEMO} />
            {canEdit && (
              <Button size="sm" variant="secondary" onClick={() => onEdit(r)}>
                <Pencil aria-hidden="true" className="size-4" />
                Edit Request
              </Button>
            )}
          </div>
        </>
      )}
    </RequestCards>
  )
}
