import { can, type CourseRequest, type FulfilMode, type Role } from '@portal/shared'
import { useState } from 'react'
import { Toast } from '@/components/ui/toast'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { errorMessage } from '@/lib/api-error'
import { useFulfilCourseRequest } from '../api/fulfil-course-request'
import { useUpdateCourseRequestStatus } from '../api/update-course-request-status'
import { AdminRequestsCards, AdminRequestsTable } from './admin-requests-list'
import { RequestsBrowser } from './requests-browser'
import { UpdateStatusModal } from './update-status-modal'

/** docs/product-rules.md §9: the toast shows for 5 seconds. */
export const TOAST_MS = 5000
export const TOAST_TEXTS = { success: 'Request updated successfully.', failed: 'Failed to update request' } as const
export { FETCH_REQUESTS_FAILED } from './requests-browser'

/** docs/product-rules.md §2 "Course Requests" (admin and sales): every request; admins change the status. */
export function AdminCourseRequests({ role }: { role: Role }) {
  const update = useUpdateCourseRequestStatus()
  const fulfil = useFulfilCourseRequest()
  const [editing, setEditing] = useState<CourseRequest | null>(null)
  const toast = useTimedMessage(TOAST_MS)
  const canEdit = can(role, 'courseRequest.updateStatus')

  const onUpdate = (request: CourseRequest) => (next: CourseRequest['status'], adminNotes: string, demoUrl: string) =>
    update.mutate(
      { id: request.id, body: { status: next, adminNotes, demoUrl } },
      {
        onSuccess: () => {
          toast.show(TOAST_TEXTS.success)
          setEditing(null)
        },
        onError: (e) => toast.show(errorMessage(e, TOAST_TEXTS.failed), 'error'),
      },
    )

  const onFulfil = (request: CourseRequest) => (mode: FulfilMode, registrationCap?: number) =>
    fulfil.mutate(
      { id: request.id, body: registrationCap === undefined ? { mode } : { mode, registrationCap } },
      {
        onSuccess: () => {
          toast.show(TOAST_TEXTS.success)
          setEditing(null)
        },
      },
    )

  const openEditor = (request: CourseRequest | null) => {
    fulfil.reset()
    setEditing(request)
  }
  return (
    <RequestsBrowser
      scope="all"
      placeholder="Search by course, user or company..."
      list={(shown, wide) => {
        const listProps = { requests: shown, canEdit, onEdit: openEditor }
        return wide ? <AdminRequestsTable {...listProps} /> : <AdminRequestsCards {...listProps} />
      }}
    >
      {editing && canEdit && (
        <UpdateStatusModal
          request={editing}
          saving={update.isPending}
          onUpdate={onUpdate(editing)}
          onClose={() => openEditor(null)}
          onFulfil={onFulfil(editing)}
          fulfilling={fulfil.isPending}
          fulfilError={fulfil.error}
        />
      )}
      {toast.message && <Toast message={toast.message.text} variant={toast.message.variant} />}
    </RequestsBrowser>
  )
}
