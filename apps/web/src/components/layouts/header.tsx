import { format } from 'date-fns'
import { Menu, X } from 'lucide-react'
import type { ReactNode, Ref } from 'react'
import { APP_NAME } from '@/config/app'

type HeaderProps = {
  menuOpen: boolean
  onMenuToggle: () => void
  menuButtonRef: Ref<HTMLButtonElement>
  sidebarId: string
  /** The bell and the Profile link, supplied by the app (components never import features). */
  actions?: ReactNode
}

/** docs/product-rules.md §2: the product title and today's date in long English form. */
export function Header({ menuOpen, onMenuToggle, menuButtonRef, sidebarId, actions }: HeaderProps) {
  const today = new Date()
  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
      <button
        ref={menuButtonRef}
        type="button"
        className="-ml-1 rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
        aria-label="Menu"
        aria-expanded={menuOpen}
        aria-controls={sidebarId}
        onClick={onMenuToggle}
      >
        {menuOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
      </button>
      <p className="text-lg font-semibold whitespace-nowrap text-slate-900">{APP_NAME}</p>
      <time
        dateTime={format(today, 'yyyy-MM-dd')}
        className="ml-auto text-right text-xs whitespace-nowrap text-slate-600 sm:text-sm"
      >
        {/* docs/product-rules.md §2's long form from 640 px; a phone has room for one short line only (the long
            form wrapped onto three), and screen readers still hear the long form. */}
        <span aria-hidden="true" className="sm:hidden">
          {format(today, 'EEE, MMM d')}
        </span>
        <span className="sr-only sm:not-sr-only">{format(today, 'EEEE, MMMM d, yyyy')}</span>
      </time>
      {actions}
    </header>
  )
}
