import type { ComponentProps, ReactNode, RefObject } from 'react'

/**
 * The dimmed backdrop and the box of a modal dialog (a Modal or a ConfirmDialog), named by its title;
 * the keyboard rules are useDialogFocus's.
 */
export function DialogFrame({
  dialog,
  role,
  titleId,
  children,
  ...props
}: Pick<ComponentProps<'div'>, 'aria-describedby' | 'tabIndex' | 'className'> & {
  dialog: RefObject<HTMLDivElement | null>
  role: 'dialog' | 'alertdialog'
  titleId: string
  children: ReactNode
}) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4">
      <div ref={dialog} role={role} aria-modal="true" aria-labelledby={titleId} {...props}>
        {children}
      </div>
    </div>
  )
}
