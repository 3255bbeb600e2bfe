import { EXPIRY_DAYS_RANGE, MAX_THRESHOLDS, USAGE_THRESHOLD_RANGE, type AlertSettings } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, controlClass } from '@/components/ui/field'

const show = (levels: number[]) => [...levels].sort((a, b) => a - b).join(', ')

export const NO_USAGE_ALERTS = 'No usage alerts will be raised.'
export const NO_EXPIRY_ALERTS = 'No expiry warnings will be raised.'

/** What an empty list turns off, in words; empty when both lists have values. */
export const alertsOff = (settings: AlertSettings) =>
  [
    settings.usageThresholds.length === 0 ? NO_USAGE_ALERTS : null,
    settings.expiryDays.length === 0 ? NO_EXPIRY_ALERTS : null,
  ].filter((line): line is string => line !== null)

/** "80, 90, 100" → numbers, or the problem in words. */
export function parseLevels(
  text: string,
  label: string,
  { min, max }: { min: number; max: number },
): number[] | string {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter(Boolean)
  if (parts.length > MAX_THRESHOLDS) return `${label}: at most ${MAX_THRESHOLDS} values.`
  const values: number[] = []
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return `${label}: "${part}" is not a whole number.`
    const value = Number(part)
    if (value < min || value > max) return `${label}: each value must be between ${min} and ${max}.`
    if (values.includes(value)) return `${label}: ${value} is listed twice.`
    values.push(value)
  }
  return values
}

/**
 * The two threshold lists (percent of the cap; days before the expiry, 0 = the day),
 * as comma-separated numbers. Used by Settings (global) and the company detail (override).
 * Starts from `value`; the parent keys it by the saved value, so a save shows what was stored.
 */
export function ThresholdForm({
  value,
  saving,
  onSave,
  saveLabel = 'Apply thresholds',
  error,
  saved,
  extraAction,
}: {
  value: AlertSettings
  saving: boolean
  onSave: (settings: AlertSettings) => void
  saveLabel?: string
  error: string | null
  saved: boolean
  /** A further button beside the save button (the company's "Use the global thresholds"). */
  extraAction?: React.ReactNode
}) {
  const [usage, setUsage] = useState(show(value.usageThresholds))
  const [expiry, setExpiry] = useState(show(value.expiryDays))
  const [problem, setProblem] = useState<string | null>(null)
  // An empty list turns those alerts off: the admin confirms that before it is saved.
  const [confirming, setConfirming] = useState<AlertSettings | null>(null)
  const off = alertsOff(value)

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    const usageThresholds = parseLevels(usage, 'License usage', USAGE_THRESHOLD_RANGE)
    const expiryDays = parseLevels(expiry, 'Expiry', EXPIRY_DAYS_RANGE)
    if (typeof usageThresholds === 'string') return setProblem(usageThresholds)
    if (typeof expiryDays === 'string') return setProblem(expiryDays)
    setProblem(null)
    if (alertsOff({ usageThresholds, expiryDays }).length > 0) return setConfirming({ usageThresholds, expiryDays })
    onSave({ usageThresholds, expiryDays })
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="License usage thresholds (% of cap)" hint="Comma-separated, e.g. 80, 90, 100.">
          {(control) => (
            <input {...control} value={usage} onChange={(e) => setUsage(e.target.value)} className={controlClass} />
          )}
        </Field>
        <Field label="Expiry warnings (days before)" hint="Comma-separated; 0 is the expiry day itself.">
          {(control) => (
            <input {...control} value={expiry} onChange={(e) => setExpiry(e.target.value)} className={controlClass} />
          )}
        </Field>
      </div>
      {(problem ?? error) && <Banner variant="error">{problem ?? error}</Banner>}
      {saved && !problem && !error && (
        <p role="status" className="text-sm text-green-800">
          Thresholds saved.
        </p>
      )}
      {off.length > 0 && (
        <p className="rounded-md border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm text-yellow-900">
          {off.join(' ')}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? 'Applying...' : saveLabel}
        </Button>
        {extraAction}
      </div>
      {confirming && (
        <ConfirmDialog
          title="Turn these alerts off?"
          confirmLabel="Save without these alerts"
          tone="danger"
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            onSave(confirming)
            setConfirming(null)
          }}
        >
          {alertsOff(confirming).join(' ')} An empty list means none; enter values to keep them.
        </ConfirmDialog>
      )}
    </form>
  )
}
