import { dispatchCapMessage, parseDispatchCap, type CourseRequest, type FulfilMode } from '@portal/shared'
import { PackagePlus } from 'lucide-react'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CapInput } from '@/components/ui/cap-input'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { conflictDispatchId, errorMessage } from '@/lib/api-error'

export const FULFIL_FAILED = 'Failed to update request'

/** "Add N licenses"; one license reads in the singular. */
export const addLicensesLabel = (n: number) => `Add ${n} ${n === 1 ? 'license' : 'licenses'}`
export const CAP_INVALID = dispatchCapMessage('License cap')

/** The cap the dispatch ends with, editable before fulfilling (the server takes it as `registrationCap`). */
function CapField({ value, error, onChange }: { value: string; error: boolean; onChange: (v: string) => void }) {
  return (
    <div className="w-48">
      <CapInput
        label="License cap"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby="fulfil-cap-hint"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  )
}

/**
 * In the Update Request Status modal: fulfil the request in one step. "Create
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
  onFulfil: (mode: FulfilMode, registrationCap?: number) => void
}) {
  const existing = request.companyDispatch ?? null
  const conflict = conflictDispatchId(error)
  const fulfilled = request.dispatchId && request.status !== 'PENDING'
  // An unlimited dispatch stays unlimited when licenses are added (no cap to edit then).
  const unlimited = existing !== null && existing.registrationCap === 0
  const suggested = existing ? existing.registrationCap + request.licenses : request.licenses
  const [capText, setCapText] = useState(String(suggested))
  const cap = parseDispatchCap(capText)
  const capHint = (
    <p id="fulfil-cap-hint" className={cap === null ? 'text-xs font-medium text-red-700' : 'text-xs text-slate-600'}>
      {cap === null
        ? CAP_INVALID
        : existing
          ? `The dispatch's cap after adding: ${existing.registrationCap} now, plus ${request.licenses} requested. 0 means unlimited.`
          : "The dispatch's cap: the requested licenses unless you change it. 0 means unlimited."}
    </p>
  )

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
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            {unlimited
              ? 'The company’s dispatch of this course has no cap; it stays unlimited.'
              : `Raises the cap of the company’s dispatch from ${existing.registrationCap} to ${cap ?? suggested}.`}
          </p>
          {!unlimited && <CapField value={capText} error={cap === null} onChange={setCapText} />}
          {!unlimited && capHint}
          <Button
            variant="primary"
            disabled={busy || (!unlimited && cap === null)}
            onClick={() => (unlimited ? onFulfil('add') : onFulfil('add', cap!))}
          >
            <PackagePlus aria-hidden="true" className="size-4" />
            {addLicensesLabel(request.licenses)}
          </Button>
          {/* After the action, so the form's first stop (where focus starts) is the cap or the button. */}
          <p className="text-sm">
            <Link to={paths.dispatch.getHref(existing.id)}>View dispatch</Link>
          </p>
        </div>
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            For {request.companyName ?? 'the requestor’s company'}, with {request.licenses}{' '}
            {request.licenses === 1 ? 'license' : 'licenses'}.
          </p>
          <CapField value={capText} error={cap === null} onChange={setCapText} />
          {capHint}
          <Button variant="primary" disabled={busy || cap === null} onClick={() => onFulfil('create', cap!)}>
            <PackagePlus aria-hidden="true" className="size-4" />
            Create dispatch
          </Button>
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
