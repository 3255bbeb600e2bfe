import { MAX_THRESHOLDS, type AlertSettings } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Field, controlClass } from '@/components/ui/field'

const show = (levels: number[]) => [...levels].sort((a, b) => a - b).join(', ')

/** "80, 90, 100" → numbers, or the problem in words. */
export function parseLevels(text: string, label: string, min: number, max: number): number[] | string {
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
 * Issue #17: the two threshold lists (percent of the cap; days before the expiry, 0 = the day),
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
}: {
  value: AlertSettings
  saving: boolean
  onSave: (settings: AlertSettings) => void
  saveLabel?: string
  error: string | null
  saved: boolean
}) {
  const [usage, setUsage] = useState(show(value.usageThresholds))
  const [expiry, setExpiry] = useState(show(value.expiryDays))
  const [problem, setProblem] = useState<string | null>(null)

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    const usageThresholds = parseLevels(usage, 'License usage', 1, 1000)
    const expiryDays = parseLevels(expiry, 'Expiry', 0, 365)
    if (typeof usageThresholds === 'string') return setProblem(usageThresholds)
    if (typeof expiryDays === 'string') return setProblem(expiryDays)
    setProblem(null)
    onSave({ usageThresholds, expiryDays })
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="License usage thresholds (% of cap)" hint="Comma-separated, e.g. 80, 90, 100.">
          {(control) => (
            <input
              {...control}
              value={usage}
              maxLength={100}
              onChange={(e) => setUsage(e.target.value)}
              className={controlClass}
            />
          )}
        </Field>
        <Field label="Expiry warnings (days before)" hint="Comma-separated; 0 is the expiry day itself.">
          {(control) => (
            <input
              {...control}
              value={expiry}
              maxLength={100}
              onChange={(e) => setExpiry(e.target.value)}
              className={controlClass}
            />
          )}
        </Field>
      </div>
      {(problem ?? error) && <Banner variant="error">{problem ?? error}</Banner>}
      {saved && !problem && !error && (
        <p role="status" className="text-sm text-green-800">
          Thresholds saved.
        </p>
      )}
      <Button type="submit" size="sm" disabled={saving}>
        {saving ? 'Applying...' : saveLabel}
      </Button>
    </form>
  )
}
