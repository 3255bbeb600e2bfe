import type { CourseRequest, FulfilMode } from '@portal/shared'
import { PackagePlus } from 'lucide-react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { conflictDispatchId, errorMessage } from '@/lib/api-error'

export const FULFIL_FAILED = 'Failed to update request'

/** "Add N licenses" (issue #15); one license reads in the singular. */
export const addLicensesLabel = (n: number) => `Add ${n} ${n === 1 ? 'license' : 'licenses'}`

/**
 * Issue #15 in the Update Request Status modal: fulfil the request in one step. "Create
 * dispatch" for the requestor's company with the requested licenses as the cap, or, when the
 * company has a dispatch of the course, "Add N licenses" to it. Either marks it PROCESSED.
 */
export function FulfilSection({
  request,
  busy,
  error,
  onFulfil,
}: {
  request: CourseRequest
  busy: boolean
  error: unknown
  onFulfil: (mode: FulfilMode) => void
}) {
  const existing = request.companyDispatch ?? null
  const conflict = conflictDispatchId(error)
  const fulfilled = request.dispatchId && request.status !== 'PENDING'

  return (
    <section aria-labelledby="fulfil-heading" className="space-y-2 rounded-md border border-slate-200 p-3">
      <h3 id="fulfil-heading" className="text-sm font-semibold text-slate-900">
        Fulfil request
      </h3>
      {fulfilled ? (
        <p className="text-sm text-slate-700">
          Fulfilled by <Link to={paths.dispatch.getHref(request.dispatchId!)}>this dispatch</Link>.
        </p>
      ) : !request.companyId ? (
        <p className="text-sm text-slate-700">The requestor has no company: a dispatch needs one.</p>
      ) : existing ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="primary" disabled={busy} onClick={() => onFulfil('add')}>
            <PackagePlus aria-hidden="true" className="size-4" />
            {addLicensesLabel(request.licenses)}
          </Button>
          <p className="text-sm text-slate-700">
            {existing.registrationCap === 0
              ? 'The company’s dispatch of this course has no cap; it stays unlimited.'
              : `Raises the cap of the company’s dispatch from ${existing.registrationCap} to ${existing.registrationCap + request.licenses}.`}{' '}
            <Link to={paths.dispatch.getHref(existing.id)}>View dispatch</Link>
          </p>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="primary" disabled={busy} onClick={() => onFulfil('create')}>
            <PackagePlus aria-hidden="true" className="size-4" />
            Create dispatch
          </Button>
          <p className="text-sm text-slate-700">
            For {request.companyName ?? 'the requestor’s company'}, with {request.licenses}{' '}
            {request.licenses === 1 ? 'license' : 'licenses'}.
          </p>
        </div>
      )}
      {error !== null && error !== undefined && (
        <Banner variant="error">
          {errorMessage(error, FULFIL_FAILED)}
          {conflict && (
            <>
              {' '}
              <Link to={paths.dispatch.getHref(conflict)}>View the existing dispatch</Link>
            </>
          )}
        </Banner>
      )}
    </section>
  )
}
