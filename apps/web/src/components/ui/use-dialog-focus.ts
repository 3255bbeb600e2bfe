import { useEffect, useRef, type RefObject } from 'react'

/**
 * The keyboard rules of a modal dialog: focus moves in on open (to what `initial` picks among the
 * dialog's `focusable` elements) and back where it was on close; Tab and Shift+Tab wrap within
 * the dialog; Escape calls `onEscape`, the latest one given.
 */
export function useDialogFocus(
  dialog: RefObject<HTMLElement | null>,
  onEscape: () => void,
  { focusable, initial }: { focusable: string; initial: (items: HTMLElement[]) => HTMLElement | null | undefined },
) {
  const escapeHandler = useRef(onEscape)
  useEffect(() => {
    escapeHandler.current = onEscape
  }, [onEscape])
  // Read once, on open: the dialog's rules do not change while it is shown.
  const options = useRef({ focusable, initial })

  useEffect(() => {
    const { focusable: selector, initial: pick } = options.current
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const items = () => [...(dialog.current?.querySelectorAll<HTMLElement>(selector) ?? [])]
    pick(items())?.focus()
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation()
        escapeHandler.current()
        return
      }
      if (event.key !== 'Tab') return
      const all = items()
      const head = all.at(0)
      const tail = all.at(-1)
      if (!head || !tail) return
      const outside = !dialog.current?.contains(document.activeElement)
      if (event.shiftKey && (document.activeElement === head || outside)) {
        event.preventDefault()
        tail.focus()
      } else if (!event.shiftKey && (document.activeElement === tail || outside)) {
        event.preventDefault()
        head.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      previous?.focus()
    }
  }, [dialog])
}
