import { X } from 'lucide-react'
import { useId, useRef, type ReactNode } from 'react'
import { cn } from './cn'
import { DialogFrame } from './dialog-frame'
import { useDialogFocus } from './use-dialog-focus'

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * An accessible modal dialog: role="dialog" with aria-modal, named by its title. Focus moves
 * into it on open (the first field or button) and back where it was on close; Tab stays
 * inside; Escape and the close button call onClose.
 */
export function Modal({
  title,
  onClose,
  children,
  footer,
  className,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
  className?: string
}) {
  const titleId = useId()
  const dialog = useRef<HTMLDivElement>(null)
  useDialogFocus(dialog, onClose, {
    focusable: FOCUSABLE,
    // The body's first control, else the close button, else the dialog itself.
    initial: (items) => items.find((el) => !el.dataset.modalClose) ?? items[0] ?? dialog.current,
  })

  return (
    <DialogFrame
      dialog={dialog}
      role="dialog"
      titleId={titleId}
      tabIndex={-1}
      // A caller's max-w-* replaces the default (both in the class list, the stylesheet's order
      // would decide, and max-w-lg came last: every modal was 512 px wide).
      className={cn(
        'flex max-h-[90vh] w-full flex-col rounded-lg bg-white shadow-xl',
        className?.includes('max-w-') ? null : 'max-w-lg',
        className,
      )}
    >
      <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-6 py-4">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <button
          type="button"
          data-modal-close="true"
          aria-label="Close dialog"
          onClick={onClose}
          className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <div className="overflow-y-auto px-6 py-4">{children}</div>
      {footer && <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-6 py-4">{footer}</div>}
    </DialogFrame>
  )
}
