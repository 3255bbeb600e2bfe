import { can, type CourseRequest, type FulfilMode, type Role } from '@portal/shared'
import { FileQuestion } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { Toast } from '@/components/ui/toast'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { errorMessage } from '@/lib/api-error'
import { useCourseRequests } from '../api/get-course-requests'
import { useFulfilCourseRequest } from '../api/fulfil-course-request'
import { useUpdateCourseRequestStatus } from '../api/update-course-request-status'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import type { StatusFilter } from '../types'
import { filterRequests } from '../utils/filter-requests'
import { AdminRequestsCards, AdminRequestsTable } from './admin-requests-list'
import { RequestFilters } from './request-filters'
import { UpdateStatusModal } from './update-status-modal'

/** SPEC §9: the toast shows for 5 seconds. */
export const TOAST_MS = 5000
export const TOAST_TEXTS = { success: 'Request updated successfully.', failed: 'Failed to update request' } as const
export const FETCH_REQUESTS_FAILED = 'Failed to fetch course requests'

/** SPEC §2 "Course Requests" (admin and sales): every request; admins change the status. */
export function AdminCourseRequests({ role }: { role: Role }) {
  const { data, error, isPending, isFetching, refetch } = useCourseRequests()
  const update = useUpdateCourseRequestStatus()
  const fulfil = useFulfilCourseRequest()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [editing, setEditing] = useState<CourseRequest | null>(null)
  const toast = useTimedMessage(TOAST_MS)
  const wide = useIsWideScreen()
  const canEdit = can(role, 'courseRequest.updateStatus')
  const shown = useMemo(() => filterRequests(data ?? [], search, status, 'all'), [data, search, status])

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
  const listProps = { requests: shown, canEdit, onEdit: openEditor }
  return (
    <div className="space-y-6">
      {error && <Banner variant="error">{errorMessage(error, FETCH_REQUESTS_FAILED)}</Banner>}
      <RequestFilters
        search={search}
        status={status}
        placeholder="Search by course, user or company..."
        refreshing={isFetching}
        onSearch={setSearch}
        onStatus={setStatus}
        onRefresh={() => void refetch()}
      />
      {isPending ? (
        <Spinner label="Loading course requests..." className="py-12" />
      ) : error && !data ? null : shown.length === 0 ? (
        <EmptyState
          icon={FileQuestion}
          title="No requests found"
          description="Try adjusting your search or filter criteria."
        />
      ) : wide ? (
        <AdminRequestsTable {...listProps} />
      ) : (
        <AdminRequestsCards {...listProps} />
      )}
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
    </div>
  )
}
