import { can, ownCompanyOnly, REPORT_FREQUENCIES, type Preferences, type Role } from '@portal/shared'
import { useMemo, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { errorMessage } from '@/lib/api-error'
import { submitHandler } from '@/lib/form-submit'
import { usePreferences, useSavePreferences } from '../api/alerts-api'

const FREQUENCY_LABELS: Record<(typeof REPORT_FREQUENCIES)[number], string> = {
  off: 'No scheduled report',
  weekly: 'Weekly (Mondays)',
  monthly: 'Monthly (the 1st)',
}

function timeZones(current: string): string[] {
  const zones = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? []
  return [...new Set(['UTC', current, ...zones])]
}

function SwitchRow({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string
  hint: string
  checked: boolean
  onChange: (v: boolean) => void
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p className="text-sm font-medium text-slate-800">{label}</p>
        <p className="text-sm text-slate-600">{hint}</p>
      </div>
      <Switch label={label} checked={checked} onChange={onChange} />
    </div>
  )
}

/** The Profile page's mail preferences (every role, the caller's own). */
export function ProfilePreferences({ role }: { role: Role }) {
  const { data, error, isPending } = usePreferences()
  if (isPending) return <Spinner label="Loading preferences..." />
  if (error || !data) return <Banner variant="error">{errorMessage(error, 'Failed to load preferences')}</Banner>
  return <PreferencesForm role={role} initial={data} />
}

function PreferencesForm({ role, initial }: { role: Role; initial: Preferences }) {
  const save = useSavePreferences()
  const [draft, setDraft] = useState<Preferences>(initial)
  const zones = useMemo(() => timeZones(draft.timeZone), [draft.timeZone])
  const set = (patch: Partial<Preferences>) => setDraft({ ...draft, ...patch })
  const reportHint = ownCompanyOnly(role)
    ? "Your company's completion summary, with the full table attached."
    : can(role, 'company.readManagedOnly')
      ? 'License usage of the companies you manage, with the full table attached.'
      : 'License usage of every company, with the full table attached.'

  return (
    <form
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-xs"
      onSubmit={submitHandler(() => save.mutate(draft))}
    >
      <h2 className="text-lg font-semibold text-slate-900">Notifications and reports</h2>
      <SwitchRow
        label="Alert mails"
        hint="A mail when a dispatch nears its license cap, approaches its expiry, or is disabled or removed."
        checked={draft.alertMails}
        onChange={(alertMails) => set({ alertMails })}
      />
      <SwitchRow
        label="Weekly digest"
        hint="A Monday summary of the past week's alerts."
        checked={draft.weeklyDigest}
        onChange={(weeklyDigest) => set({ weeklyDigest })}
      />
      {ownCompanyOnly(role) && (
        <SwitchRow
          label="Monthly usage statement"
          hint="On the first of each month, your company's usage statement of the month before, as an Excel file."
          checked={draft.statementMails ?? false}
          onChange={(statementMails) => set({ statementMails })}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <Select
          label="Scheduled report"
          value={draft.reportFrequency}
          onChange={(e) => set({ reportFrequency: e.target.value as Preferences['reportFrequency'] })}
          options={REPORT_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
          aria-describedby="report-hint"
        />
        <Select
          label="Send at"
          value={String(draft.reportHour)}
          onChange={(e) => set({ reportHour: Number(e.target.value) })}
          options={Array.from({ length: 24 }, (_, h) => ({
            value: String(h),
            label: `${String(h).padStart(2, '0')}:00`,
          }))}
        />
        <Select
          label="Time zone"
          value={draft.timeZone}
          onChange={(e) => set({ timeZone: e.target.value })}
          options={zones.map((z) => ({ value: z, label: z }))}
        />
      </div>
      <p id="report-hint" className="text-sm text-slate-600">
        {reportHint} The digest and the report are sent at this hour in your time zone.
      </p>
      {save.error && <Banner variant="error">{errorMessage(save.error, 'Failed to save preferences')}</Banner>}
      {save.isSuccess && (
        <p role="status" className="text-sm text-green-800">
          Preferences saved.
        </p>
      )}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save preferences'}
      </Button>
    </form>
  )
}
