import { formatDateTime, type Notification } from '@portal/shared'
import { Bell } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/alerts-api'

const countLabel = (n: number) => (n >= 1000 ? '999+' : n > 99 ? '99+' : String(n))

/**
 * The header's bell. A button (aria-expanded, aria-controls) opens a panel with a
 * labelled list of alerts, newest first; Escape or a click outside closes it and focus returns
 * to the button. Staff see every alert, a client its own company's (the server scopes them).
 */
export function NotificationBell() {
  const { data } = useNotifications()
  const markRead = useMarkRead()
  const markAll = useMarkAllRead()
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const panelId = useId()
  const headingId = `${panelId}-heading`
  const unread = data?.unreadCount ?? 0

  const close = (returnFocus: boolean) => {
    setOpen(false)
    if (returnFocus) buttonRef.current?.focus()
  }

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true)
    }
    const onPointer = (event: MouseEvent) => {
      const target = event.target as Node
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', onPointer)
    panelRef.current?.focus()
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', onPointer)
    }
  }, [open])

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="relative rounded-md p-2 text-slate-700 hover:bg-slate-100"
        aria-label={unread > 0 ? `Notifications, ${countLabel(unread)} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(true) : setOpen(true))}
      >
        <Bell aria-hidden="true" className="size-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="unread-count"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {countLabel(unread)}
          </span>
        )}
      </button>
      <div
        ref={panelRef}
        id={panelId}
        role="region"
        aria-labelledby={headingId}
        tabIndex={-1}
        hidden={!open}
        // On a phone the bell is not at the screen's right edge (the Profile link follows it), so a
        // panel hung from it ran off the left edge: there it spans the screen under the header.
        className="fixed inset-x-4 top-18 z-30 rounded-lg border border-slate-200 bg-white shadow-lg focus:outline-none sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-96"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <h2 id={headingId} className="text-sm font-semibold text-slate-900">
            Notifications
          </h2>
          <button
            type="button"
            className="text-xs font-medium text-blue-700 hover:underline disabled:text-slate-400 disabled:no-underline"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Mark all read
          </button>
        </div>
        {!data || data.items.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-slate-600">No notifications</p>
        ) : (
          <ul aria-labelledby={headingId} className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
            {data.items.map((n) => (
              <NotificationItem
                key={n.id}
                notification={n}
                onRead={() => markRead.mutate(n.id)}
                onOpen={() => {
                  if (!n.read) markRead.mutate(n.id)
                  close(false)
                }}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

function NotificationItem({
  notification: n,
  onRead,
  onOpen,
}: {
  notification: Notification
  onRead: () => void
  onOpen: () => void
}) {
  return (
    <li className={n.read ? 'px-4 py-3' : 'bg-blue-50 px-4 py-3'}>
      <p className="text-sm text-slate-900">
        {!n.read && <span className="sr-only">Unread: </span>}
        {n.message}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-3 text-xs text-slate-600">
        <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
        {n.kind !== 'removed' && (
          <Link to={paths.dispatch.getHref(n.dispatchId)} onClick={onOpen} className="text-xs">
            View dispatch
          </Link>
        )}
        {!n.read && (
          <button type="button" className="font-medium text-blue-700 hover:underline" onClick={onRead}>
            Mark read
          </button>
        )}
      </div>
    </li>
  )
}
