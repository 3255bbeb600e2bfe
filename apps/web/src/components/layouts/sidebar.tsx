import { avatarInitial, displayName } from '@portal/shared'
import type { User } from '@/types/api'
import { LifeBuoy, LogOut, UserRound } from 'lucide-react'
import { NavLink } from 'react-router'
import { cn } from '@/components/ui/cn'
import { Logo } from '@/components/ui/logo'
import { paths } from '@/config/paths'
import { navItemsFor } from './nav-items'
import { iconOnlyName } from '@/components/ui/icon-only-name'

export type SidebarProps = {
  id: string
  user: User
  open: boolean
  supportEmail: string | undefined
  onNavigate: () => void
  onHelpClick: () => void
  onLogout: () => void
}

/** A sidebar link's classes: its own layout, highlighted while its page is open. */
const navLinkClass =
  (layout: string) =>
  ({ isActive }: { isActive: boolean }) =>
    cn(layout, isActive ? 'bg-blue-600 text-white' : 'text-slate-300 hover:bg-slate-800 hover:text-white')

/** docs/product-rules.md §2 shell sidebar. Below 1024 px it is a drawer opened from the header's menu button. */
export function Sidebar({ id, user, open, supportEmail, onNavigate, onHelpClick, onLogout }: SidebarProps) {
  return (
    <aside
      id={id}
      aria-label="Sidebar"
      className={cn(
        'fixed inset-y-0 left-0 z-40 w-64 flex-col bg-slate-900 text-slate-200 lg:flex',
        open ? 'flex shadow-xl' : 'hidden',
      )}
    >
      <NavLink to={paths.dashboard.getHref()} onClick={onNavigate} className="flex h-16 items-center px-5">
        <Logo tone="light" />
      </NavLink>

      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {navItemsFor(user.role).map(({ name, to, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={navLinkClass(
                  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                )}
              >
                <Icon aria-hidden="true" className="size-5 shrink-0" />
                {name}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <div className="space-y-3 border-t border-slate-700 p-4">
        {/* The Profile page (alert preferences) beside the account it belongs to, for every role;
            the header's icon was the only way there. */}
        <NavLink
          to={paths.profile.getHref()}
          onClick={onNavigate}
          className={navLinkClass('flex items-center gap-2 rounded-md px-2 py-1.5 text-sm')}
        >
          <UserRound aria-hidden="true" className="size-4" />
          Profile
        </NavLink>
        {supportEmail && (
          <a
            href={`mailto:${supportEmail}`}
            onClick={onHelpClick}
            className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-300 hover:bg-slate-800 hover:text-white"
          >
            <LifeBuoy aria-hidden="true" className="size-4" />
            Need help?
          </a>
        )}
        <div className="flex items-center gap-3">
          <span
            aria-hidden="true"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-600 font-semibold text-white"
          >
            {avatarInitial(user)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-white">{displayName(user)}</p>
            <p className="truncate text-xs text-slate-400">{user.email}</p>
          </div>
          <button
            type="button"
            onClick={onLogout}
            {...iconOnlyName('Log out')}
            className="rounded-md p-2 text-slate-300 hover:bg-slate-800 hover:text-white"
          >
            <LogOut aria-hidden="true" className="size-5" />
          </button>
        </div>
      </div>
    </aside>
  )
}
