import { can, type Role } from '@portal/shared'
import { useEffect, useRef, type ReactNode } from 'react'
import { DetailLayout } from '@/components/layouts/detail-layout'
import { useStickyError } from '@/components/ui/error-state'
import { QueryErrorState } from '@/components/ui/query-state'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { errorMessage } from '@/lib/api-error'
import { useDispatch } from '../api/get-dispatch'
import type { UiEventHandler } from '@/types/ui-event'
import { DispatchAdminControls } from './dispatch-admin-controls'
import { DownloadPackageButton } from './download-package-button'
import { GeneralInformationCard } from './general-information-card'
import { LicenceHistory } from './licence-history'

export const DEFAULT_TITLE = 'Dispatch Details'

/** docs/product-rules.md §8: "Error fetching dispatch details: {message}", the server's message first. */
export const detailsErrorText = (error: unknown) =>
  `Error fetching dispatch details: ${errorMessage(error, error instanceof Error ? error.message : String(error))}`

/**
 * docs/product-rules.md §2 "Dispatch details screen": breadcrumb, title, General Information, the admin
 * controls (docs/product-decisions.md D10) and, once the dispatch is loaded, `children` (the completion report).
 */
export function DispatchDetails({
  id,
  role,
  onEvent,
  children,
}: {
  id: string
  role: Role
  onEvent: UiEventHandler
  children?: ReactNode
}) {
  const query = useDispatch(id)
  const { data: dispatch, error } = query
  const title = dispatch?.courseTitle || DEFAULT_TITLE
  const shownError = useStickyError(error, dispatch !== undefined)

  const reported = useRef<string | null>(null)
  useEffect(() => {
    if (!dispatch || reported.current === dispatch.id) return
    reported.current = dispatch.id
    onEvent('DISPATCH_DETAILS_LOADED', { dispatchId: dispatch.id, courseId: dispatch.courseId })
  }, [dispatch, onEvent])

  return (
    <DetailLayout
      title={title}
      above={[{ label: 'Dashboard', href: paths.dashboard.getHref() }]}
      className="mx-auto w-full max-w-7xl"
      align="items-start"
      actions={dispatch && <DownloadPackageButton dispatch={dispatch} />}
    >
      <div className="mt-6 space-y-6">
        {dispatch ? (
          <>
            <GeneralInformationCard dispatch={dispatch} role={role} />
            {can(role, 'dispatch.update') && <DispatchAdminControls dispatch={dispatch} />}
            {can(role, 'dispatch.readHistory') && <LicenceHistory dispatch={dispatch} />}
            {children}
          </>
        ) : shownError ? (
          <QueryErrorState query={query} message={detailsErrorText(shownError)} />
        ) : (
          <Spinner label="Loading dispatch details..." className="py-12" />
        )}
      </div>
    </DetailLayout>
  )
}
