import { useSyncExternalStore } from 'react'

/** docs/product-rules.md §9: tables from 1024 px up; narrower screens get cards. */
export const WIDE_LAYOUT_MIN_PX = 1024
const QUERY = `(min-width: ${WIDE_LAYOUT_MIN_PX}px)`

const mediaQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null)

function subscribe(onChange: () => void): () => void {
  const list = mediaQuery()
  list?.addEventListener('change', onChange)
  window.addEventListener('resize', onChange)
  return () => {
    list?.removeEventListener('change', onChange)
    window.removeEventListener('resize', onChange)
  }
}

const isWide = () => mediaQuery()?.matches ?? window.innerWidth >= WIDE_LAYOUT_MIN_PX

/** True at 1024 px and wider: the table layouts; below it, cards. */
export function useIsWideScreen(): boolean {
  return useSyncExternalStore(subscribe, isWide)
}
