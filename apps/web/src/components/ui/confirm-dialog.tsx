import { useId, useRef, type ReactNode } from 'react'
import { Button } from './button'
import { DialogFrame } from './dialog-frame'
import { useDialogFocus } from './use-dialog-focus'

/**
 * A modal question with Confirm and Cancel. Focus moves to Cancel (the safe choice) on open
 * and back to where it was on close; Escape cancels; Tab stays inside.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy = false,
  tone = 'primary',
  onConfirm,
  onCancel,
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  busy?: boolean
  tone?: 'primary' | 'danger'
  onConfirm: () => void
  onCancel: () => void
}) {
  const titleId = useId()
  const bodyId = useId()
  const dialog = useRef<HTMLDivElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  useDialogFocus(dialog, onCancel, { focusable: 'button:not([disabled])', initial: () => cancel.current })

  return (
    <DialogFrame
      dialog={dialog}
      role="alertdialog"
      titleId={titleId}
      aria-describedby={bodyId}
      className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl"
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div id={bodyId} className="mt-2 text-sm text-slate-700">
        {children}
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button ref={cancel} variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant={tone} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </div>
    </DialogFrame>
  )
}
