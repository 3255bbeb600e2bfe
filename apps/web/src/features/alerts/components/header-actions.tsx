import { UserRound } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { NotificationBell } from './notification-bell'
import { iconOnlyName } from '@/components/ui/icon-only-name'

/** The header's bell and the link to the Profile page (every role). */
export function HeaderActions() {
  return (
    <div className="flex items-center gap-1">
      <NotificationBell />
      <Link
        to={paths.profile.getHref()}
        {...iconOnlyName('Profile')}
        className="rounded-md p-2 text-slate-700 hover:bg-slate-100"
      >
        <UserRound aria-hidden="true" className="size-5" />
      </Link>
    </div>
  )
}
