import { parseDispatchCap, type ScheduleRenewalBody } from '@portal/shared'
import { format } from 'date-fns'
import { DateField } from '@/components/ui/date-field'
import { CheckboxField } from '@/components/ui/inline-form'
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

/** The renewal's yes/no choices, in the order shown. */
const CHECKBOXES = [
  ['resetCount', 'Reset the registration counter'],
  ['confirmBelowCount', 'Allow a cap below the current count'],
] as const

/** The renewal's fields: day, new cap, new expiry, counter reset, rollover, confirmation. */
export function RenewalFields({ draft, onChange }: { draft: RenewalDraft; onChange: (draft: RenewalDraft) => void }) {
  const set = (part: Partial<RenewalDraft>) => onChange({ ...draft, ...part })
  /** A whole-number text field's value and change handler. */
  const numberText = (key: 'cap' | 'rollover') => ({
    inputMode: 'numeric' as const,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set({ [key]: e.target.value }),
  })
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <DateField label="Renewal date" value={draft.runOn} onChange={(runOn) => set({ runOn })} />
      <Input label="New cap" placeholder="Unchanged" {...numberText('cap')} />
      <DateField
        label="New expiry"
        value={draft.expiry}
        hint="Empty: unchanged"
        onChange={(expiry) => set({ expiry })}
      />
      <Input label="Rollover every (months)" placeholder="No rollover" {...numberText('rollover')} />
      {CHECKBOXES.map(([key, label]) => (
        <CheckboxField
          key={key}
          label={label}
          className="size-4"
          tall={false}
          checked={draft[key]}
          onChange={(on) => set({ [key]: on })}
        />
      ))}
    </div>
  )
}
