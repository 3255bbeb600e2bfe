import type { ReactNode } from 'react'
import { Button } from './button'

/**
 * Cancel and the form's submit button, at the right; both are disabled while `busy`. With
 * `onSubmit` the second button is a plain button that calls it (a dialog's footer outside the form).
 */
export function FormActions({
  busy,
  onCancel,
  submitLabel,
  onSubmit,
}: {
  busy: boolean
  onCancel: () => void
  submitLabel: ReactNode
  onSubmit?: () => void
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type={onSubmit ? 'button' : 'submit'} onClick={onSubmit} disabled={busy}>
        {submitLabel}
      </Button>
    </div>
  )
}
