import { parseDispatchCap, type ScheduleRenewalBody } from '@portal/shared'
import { format } from 'date-fns'
import { DateField } from '@/components/ui/date-field'
import { Input } from '@/components/ui/input'

/** What the renewal form holds, as typed. */
export interface RenewalDraft {
  runOn: string
  cap: string
  expiry: string
  resetCount: boolean
  rollover: string
  confirmBelowCount: boolean
}

export const emptyRenewal = (): RenewalDraft => ({
  runOn: format(new Date(), 'yyyy-MM-dd'),
  cap: '',
  expiry: '',
  resetCount: false,
  rollover: '',
  confirmBelowCount: false,
})

type RenewalChange = Omit<ScheduleRenewalBody, 'companyId' | 'dispatchIds' | 'filter'>

/**
 * The draft as the API's renewal, or the form's own error. The server checks the same rules
 * (date in the past, expiry before the renewal day, nothing to change) and answers the same.
 */
export function toRenewalChange(draft: RenewalDraft): { change: RenewalChange } | { error: string } {
  if (!draft.runOn) return { error: 'Choose the renewal date.' }
  const change: RenewalChange = { runOn: draft.runOn }
  if (draft.cap.trim() !== '') {
    const cap = parseDispatchCap(draft.cap)
    if (cap === null) return { error: 'The new cap must be a whole number of at least 0 (0 is no cap).' }
    change.registrationCap = cap
  }
  if (draft.expiry) change.expirationDate = draft.expiry
  if (draft.resetCount) change.resetCount = true
  if (draft.rollover.trim() !== '') {
    const months = Number(draft.rollover)
    if (!Number.isInteger(months) || months < 1 || months > 120)
      return { error: 'The rollover period must be a whole number of months from 1 to 120.' }
    change.rolloverMonths = months
  }
  if (draft.confirmBelowCount) change.confirmBelowCount = true
  return { change }
}

/** The renewal's fields: day, new cap, new expiry, counter reset, rollover, confirmation. */
export function RenewalFields({ draft, onChange }: { draft: RenewalDraft; onChange: (draft: RenewalDraft) => void }) {
  const set = (part: Partial<RenewalDraft>) => onChange({ ...draft, ...part })
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <DateField label="Renewal date" value={draft.runOn} onChange={(runOn) => set({ runOn })} />
      <Input
        label="New cap"
        inputMode="numeric"
        placeholder="Unchanged"
        value={draft.cap}
        onChange={(e) => set({ cap: e.target.value })}
      />
      <DateField
        label="New expiry"
        value={draft.expiry}
        hint="Empty: unchanged"
        onChange={(expiry) => set({ expiry })}
      />
      <Input
        label="Rollover every (months)"
        inputMode="numeric"
        placeholder="No rollover"
        value={draft.rollover}
        onChange={(e) => set({ rollover: e.target.value })}
      />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4"
          checked={draft.resetCount}
          onChange={(e) => set({ resetCount: e.target.checked })}
        />
        Reset the registration counter
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4"
          checked={draft.confirmBelowCount}
          onChange={(e) => set({ confirmBelowCount: e.target.checked })}
        />
        Allow a cap below the current count
      </label>
    </div>
  )
}
