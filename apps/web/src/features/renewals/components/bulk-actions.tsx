import { parseDispatchCap, type BulkAction, type BulkActionBody } from '@portal/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { DateField } from '@/components/ui/date-field'
import { CheckboxField } from '@/components/ui/inline-form'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
import { ProgressBar } from '@/components/ui/progress-bar'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useBulkRun, useStartBulk } from '../api/renewals'
import { emptyRenewal, RenewalFields, toRenewalChange } from './renewal-fields'

/** The dispatch list's selection, as the list hands it over. */
export interface BulkSelection {
  dispatchIds: string[] | null
  filter: { search?: string; status?: 'enabled' | 'disabled' } | null
  count: number
  clear(): void
}

const ACTIONS: { value: BulkAction; label: string }[] = [
  { value: 'enable', label: 'Enable' },
  { value: 'disable', label: 'Disable' },
  { value: 'setCap', label: 'Change cap' },
  { value: 'setExpiry', label: 'Change expiry' },
  { value: 'scheduleRenewal', label: 'Schedule a renewal' },
]

/** The bulk bar under the selection: an action, its values, and Apply; then the run's progress. */
export function BulkActions({ selection }: { selection: BulkSelection }) {
  const [action, setAction] = useState<BulkAction>('disable')
  const [cap, setCap] = useState('')
  const [expiry, setExpiry] = useState('')
  const [confirmBelowCount, setConfirmBelowCount] = useState(false)
  const [renewal, setRenewal] = useState(emptyRenewal)
  const [formError, setFormError] = useState<string | null>(null)
  const [runId, setRunId] = useState<string | null>(null)
  const start = useStartBulk()

  const apply = () => {
    const body: BulkActionBody = {
      action,
      ...(selection.dispatchIds ? { dispatchIds: selection.dispatchIds } : { filter: selection.filter ?? {} }),
    }
    if (action === 'setCap') {
      const parsed = parseDispatchCap(cap)
      if (parsed === null) return setFormError('The new cap must be a whole number of at least 0 (0 is no cap).')
      body.registrationCap = parsed
      if (confirmBelowCount) body.confirmBelowCount = true
    } else if (action === 'setExpiry') {
      body.expirationDate = expiry || null
    } else if (action === 'scheduleRenewal') {
      const parsed = toRenewalChange(renewal)
      if ('error' in parsed) return setFormError(parsed.error)
      body.renewal = parsed.change
    }
    setFormError(null)
    start.mutate(body, { onSuccess: (run) => setRunId(run.id) })
  }
  const error = formError ?? (start.error ? errorMessage(start.error, 'Could not start the bulk action') : null)

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Bulk action"
          value={action}
          options={ACTIONS}
          onChange={(e) => setAction(e.target.value as BulkAction)}
        />
        {action === 'setCap' && (
          <>
            <Input label="New cap" inputMode="numeric" value={cap} onChange={(e) => setCap(e.target.value)} />
            <CheckboxField
              label="Allow a cap below the current count"
              className="size-4"
              checked={confirmBelowCount}
              onChange={setConfirmBelowCount}
            />
          </>
        )}
        {action === 'setExpiry' && (
          <DateField label="New expiry" value={expiry} hint="Empty: no expiry" onChange={setExpiry} />
        )}
        <Button onClick={apply} disabled={start.isPending}>
          {start.isPending ? 'Starting...' : `Apply to ${selection.count} dispatch${selection.count === 1 ? '' : 'es'}`}
        </Button>
      </div>
      {action === 'scheduleRenewal' && <RenewalFields draft={renewal} onChange={setRenewal} />}
      {error && <Banner variant="error">{error}</Banner>}
      {runId && (
        <BulkProgress
          id={runId}
          onClose={() => {
            setRunId(null)
            selection.clear()
          }}
        />
      )}
    </div>
  )
}

const ITEM_TONES = { done: 'green', failed: 'red', running: 'yellow', pending: 'neutral' } as const

/** A bulk run's progress: how many are done or failed, and each dispatch's outcome with its reason. */
export function BulkProgress({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, error } = useBulkRun(id)
  const queryClient = useQueryClient()
  const finished = data?.status === 'finished'
  const settled = data ? data.done + data.failed : 0
  const close = () => {
    // The list shows the changed dispatches.
    void queryClient.invalidateQueries({ queryKey: ['dispatches'] })
    onClose()
  }
  return (
    <Modal
      title="Bulk action progress"
      onClose={close}
      className="max-w-3xl"
      footer={
        <div className="flex justify-end">
          <Button onClick={close}>{finished ? 'Close' : 'Close (it carries on)'}</Button>
        </div>
      }
    >
      {error && <Banner variant="error">{errorMessage(error, 'Failed to load the progress')}</Banner>}
      {!data ? (
        <Spinner label="Loading progress..." />
      ) : (
        <div className="space-y-4">
          <ProgressBar
            value={data.total ? Math.round((settled / data.total) * 100) : 100}
            label="Bulk action progress"
          />
          <p role="status" className="text-sm text-slate-800">
            {finished ? 'Finished: ' : 'Running: '}
            {data.done} of {data.total} done, {data.failed} failed
          </p>
          <ul aria-label="Outcome per dispatch" className="max-h-80 divide-y divide-slate-200 overflow-y-auto text-sm">
            {data.items.map((item) => (
              <li key={item.dispatchId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="text-slate-900">
                  {item.courseTitle || item.dispatchId}
                  {item.companyName && <span className="text-slate-600"> ({item.companyName})</span>}
                </span>
                <span className="flex items-center gap-2">
                  <Badge tone={ITEM_TONES[item.status as keyof typeof ITEM_TONES] ?? 'neutral'}>{item.status}</Badge>
                  {item.error && <span className="text-red-800">{item.error}</span>}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  )
}
