import {
  tooLongMessage,
  COURSE_REQUEST_STATUSES,
  NOT_AVAILABLE,
  REQUEST_NOTES_MAX,
  formatDateTime,
  type CourseRequest,
  type CourseRequestStatus,
  type FulfilMode,
} from '@portal/shared'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Modal } from '@/components/ui/modal'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { useCourseDemoUrl } from '../api/get-course-demo'
import { FulfilSection } from './fulfil-section'
import { RequestStatusBadge } from './request-bits'
import { detailRow } from '@/components/ui/detail-row'

/** docs/product-rules.md §2: one button for each status other than the current one. */
export const STATUS_ACTIONS: Record<CourseRequestStatus, string> = {
  PENDING: 'Set as Pending',
  PROCESSED: 'Mark as Processed',
  COMPLETED: 'Mark as Completed',
}
export const NO_DEMO_CONFIGURED =
  'No demo URL is configured for this course. Add one in the course details before sharing a demo.'

const Field = detailRow('grid grid-cols-[9rem_1fr] gap-2 py-1.5', 'text-slate-600', 'break-words text-slate-900')

/**
 * docs/product-rules.md §2 "Update Request Status" (admin): the request, Admin Notes (seen by the client), the
 * course's demo URL read-only, and a button per other status. The caller shows the toast.
 */
export function UpdateStatusModal({
  request,
  saving,
  onUpdate,
  onClose,
  onFulfil,
  fulfilling = false,
  fulfilError = null,
}: {
  request: CourseRequest
  saving: boolean
  onUpdate: (status: CourseRequestStatus, adminNotes: string, demoUrl: string) => void
  onClose: () => void
  /** Fulfil in one step (create the dispatch or add the licenses). */
  onFulfil?: (mode: FulfilMode, registrationCap?: number) => void
  fulfilling?: boolean
  fulfilError?: unknown
}) {
  const [adminNotes, setAdminNotes] = useState(request.adminNotes)
  const demo = useCourseDemoUrl(request.courseId)
  const demoUrl = demo.data ?? ''
  // Past the limit the notes are not sent (the count under them says why), never cut.
  const notesTooLong = tooLongMessage('Admin Notes', adminNotes, REQUEST_NOTES_MAX) !== null

  const footer = (
    <>
      {COURSE_REQUEST_STATUSES.filter((s) => s !== request.status).map((status) => (
        // Secondary: fulfilling (at the top of the modal) is the main action.
        <Button
          key={status}
          variant="secondary"
          disabled={saving || fulfilling || demo.isPending || notesTooLong}
          onClick={() => onUpdate(status, adminNotes.trim(), demoUrl)}
        >
          {STATUS_ACTIONS[status]}
        </Button>
      ))}
      <Button variant="ghost" onClick={onClose} disabled={saving}>
        Close
      </Button>
    </>
  )

  return (
    <Modal title="Update Request Status" onClose={onClose} footer={footer} className="max-w-2xl">
      {onFulfil && (
        <div className="mb-4">
          <FulfilSection request={request} busy={saving || fulfilling} error={fulfilError} onFulfil={onFulfil} />
        </div>
      )}
      <dl className="divide-y divide-slate-100 text-sm">
        <Field label="Course">{request.courseTitle}</Field>
        <Field label="Requestor">
          {request.userName || NOT_AVAILABLE}
          {request.userEmail && <span className="block text-xs text-slate-600">{request.userEmail}</span>}
        </Field>
        <Field label="Company">{request.companyName || NOT_AVAILABLE}</Field>
        <Field label="Licenses">{request.licenses}</Field>
        <Field label="Current Status">
          <RequestStatusBadge status={request.status} />
        </Field>
        <Field label="Date Requested">{formatDateTime(request.createdAt)}</Field>
        <Field label="Requestor Notes">{request.notes || 'No notes'}</Field>
      </dl>
      <div className="mt-4 space-y-4">
        <Textarea
          label="Admin Notes"
          hint="These notes are visible to the client."
          value={adminNotes}
          limit={REQUEST_NOTES_MAX}
          onChange={(event) => setAdminNotes(event.target.value)}
        />
        <div className="space-y-1.5">
          <span className="text-sm font-medium text-slate-800">Demo URL</span>
          {demo.isPending ? (
            <Spinner label="Loading demo URL..." />
          ) : demoUrl ? (
            <input
              aria-label="Demo URL"
              readOnly
              value={demoUrl}
              className="h-10 w-full rounded-md border border-slate-300 bg-slate-50 px-3 text-sm text-slate-700"
            />
          ) : (
            <p className="rounded-md border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm text-yellow-900">
              {NO_DEMO_CONFIGURED}
            </p>
          )}
          <p className="text-xs text-slate-600">Taken from the course details; it is shared with the client.</p>
        </div>
      </div>
    </Modal>
  )
}
