import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { FormActions } from '@/components/ui/form-actions'
import { Modal } from '@/components/ui/modal'
import { errorMessage } from '@/lib/api-error'
import { submitHandler } from '@/lib/form-submit'
import { useScheduleRenewal } from '../api/renewals'
import { emptyRenewal, RenewalFields, toRenewalChange } from './renewal-fields'

/** Schedules a renewal for every dispatch of a company. */
export function ScheduleRenewalDialog({
  companyId,
  onClose,
  onScheduled,
}: {
  companyId: string
  onClose: () => void
  onScheduled: (count: number) => void
}) {
  const [draft, setDraft] = useState(emptyRenewal)
  const [formError, setFormError] = useState<string | null>(null)
  const schedule = useScheduleRenewal()
  const submit = () => {
    const parsed = toRenewalChange(draft)
    if ('error' in parsed) return setFormError(parsed.error)
    setFormError(null)
    schedule.mutate(
      { companyId, ...parsed.change },
      {
        onSuccess: (result) => {
          onScheduled(result.scheduled)
          onClose()
        },
      },
    )
  }
  const error = formError ?? (schedule.error ? errorMessage(schedule.error, 'Could not schedule the renewal') : null)
  return (
    <Modal
      title="Schedule renewal"
      onClose={onClose}
      className="max-w-2xl"
      footer={
        <FormActions
          busy={schedule.isPending}
          onCancel={onClose}
          onSubmit={submit}
          submitLabel={schedule.isPending ? 'Scheduling...' : 'Schedule renewal'}
        />
      }
    >
      <form className="space-y-4" onSubmit={submitHandler(submit)}>
        <p className="text-sm text-slate-700">
          For every dispatch of this company, carried out on the renewal date (UTC).
        </p>
        <RenewalFields draft={draft} onChange={setDraft} />
        {error && <Banner variant="error">{error}</Banner>}
      </form>
    </Modal>
  )
}
