import type { User } from '@/types/api'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Footer } from './footer'
import { Header } from './header'
import { Sidebar } from './sidebar'

const SIDEBAR_ID = 'app-sidebar'

export type AppShellProps = {
  user: User
  supportEmail: string | undefined
  onHelpClick: () => void
  onLogout: () => void
  /** Shown at the header's end (the notification bell, the Profile link). */
  headerActions?: ReactNode
  children: ReactNode
}

/** docs/product-rules.md §2 "Shell": sidebar, header and footer around the screen. */
export function AppShell({ user, supportEmail, onHelpClick, onLogout, headerActions, children }: AppShellProps) {
  const [menuOpen, setMenuOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)

  // Like the export menu's Escape, written here: a hook shared with it would be a chunk of its own on
  // the first visit, over the dashboard's size budget.
  useEffect(() => {
    if (!menuOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setMenuOpen(false)
      menuButton.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [menuOpen])

  return (
    <div className="min-h-dvh bg-slate-50">
      <a
        href="#main-content"
        className="sr-only rounded-md bg-white px-4 py-2 font-medium text-blue-800 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-4 focus:py-2 focus:shadow-lg"
      >
        Skip to main content
      </a>
      <Sidebar
        id={SIDEBAR_ID}
        user={user}
        open={menuOpen}
        supportEmail={supportEmail}
        onNavigate={() => setMenuOpen(false)}
        onHelpClick={onHelpClick}
        onLogout={onLogout}
      />
      {menuOpen && (
        <div
          aria-hidden="true"
          className="fixed inset-0 z-30 bg-slate-900/50 lg:hidden"
          onClick={() => setMenuOpen(false)}
        />
      )}
      <div className="flex min-h-dvh flex-col lg:pl-64">
        <Header
          menuOpen={menuOpen}
          onMenuToggle={() => setMenuOpen((open) => !open)}
          menuButtonRef={menuButton}
          sidebarId={SIDEBAR_ID}
          actions={headerActions}
        />
        <main id="main-content" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
          {children}
        </main>
        <Footer />
      </div>
    </div>
  )
}
