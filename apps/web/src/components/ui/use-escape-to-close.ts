import { useEffect, type RefObject } from 'react'

/**
 * While `open`, Escape closes what is open (a menu, the narrow-screen sidebar) and focus goes back to
 * `returnTo`, the button that opened it: what had focus goes away with it.
 */
export function useEscapeToClose(
  open: boolean,
  setOpen: (open: boolean) => void,
  returnTo: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      returnTo.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open, setOpen, returnTo])
}
