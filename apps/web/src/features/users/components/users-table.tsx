import { defaultUsername, formatDateTime } from '@portal/shared'
import { format } from 'date-fns'
import { Pencil, Trash2, UserCheck, UserX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ResponsiveTable, type Column } from '@/components/ui/responsive-table'
import type { User } from '@/types/api'
import { RoleBadge, StatusBadge } from './user-badges'

/** docs/product-rules.md §2: username, else the part of the email before @. */
export const shownUsername = (user: User) => user.username || defaultUsername(user.email ?? '')

/** docs/product-rules.md §2: Created as YYYY-MM-DD; Last Login as date and time, or - when empty. */
export const createdDay = (value: string) => {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '-' : format(date, 'yyyy-MM-dd')
}
export const lastLoginText = (value: string | null) => (value ? formatDateTime(value) : '-')

type Props = {
  users: readonly User[]
  currentUserId: string
  onEdit: (user: User) => void
  onToggleStatus: (user: User) => void
  onDelete: (user: User) => void
}

/** docs/product-rules.md §2 Settings users table (cards below 1024 px). Admins cannot suspend or delete themselves (docs/product-rules.md §5). */
export function UsersTable({ users, currentUserId, onEdit, onToggleStatus, onDelete }: Props) {
  const columns: Column<User>[] = [
    {
      header: 'User',
      primary: true,
      cell: (user, layout) => {
        const name = shownUsername(user)
        const wrap = layout === 'table' ? 'whitespace-nowrap' : 'break-all'
        return (
          <div className="flex min-w-0 items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-800"
            >
              {name.charAt(0).toUpperCase() || '?'}
            </span>
            <div className="min-w-0">
              <div className={`font-medium text-slate-900 ${wrap}`}>{name}</div>
              <div className={`text-xs text-slate-600 ${wrap}`}>{user.email || 'No Email'}</div>
            </div>
          </div>
        )
      },
    },
    { header: 'Role', cell: (user) => <RoleBadge role={user.role} /> },
    { header: 'Status', cell: (user) => <StatusBadge status={user.status} /> },
    { header: 'Client', className: 'whitespace-nowrap', cell: (user) => user.destinationName || '-' },
    { header: 'Created', className: 'whitespace-nowrap tabular-nums', cell: (user) => createdDay(user.createdAt) },
    {
      header: 'Last Login',
      className: 'whitespace-nowrap tabular-nums',
      cell: (user) => lastLoginText(user.lastLogin),
    },
    {
      header: 'Actions',
      actions: true,
      cell: (user, layout) => (
        <UserRowActions
          compact={layout === 'table'}
          user={user}
          self={user.id === currentUserId}
          onEdit={onEdit}
          onToggleStatus={onToggleStatus}
          onDelete={onDelete}
        />
      ),
    },
  ]
  return <ResponsiveTable caption="Users" columns={columns} rows={users} rowKey={(user) => user.id} />
}

/**
 * Edit, Suspend/Activate, Delete. In the table (`compact`) they are icon buttons, named by the
 * hidden text and titled for the pointer, so the row stays one line at 1280 px; cards show words.
 */
function UserRowActions({
  compact,
  user,
  self,
  onEdit,
  onToggleStatus,
  onDelete,
}: Omit<Props, 'users' | 'currentUserId'> & { compact: boolean; user: User; self: boolean }) {
  const active = user.status === 'active'
  const toggleLabel = active ? 'Suspend' : 'Activate'
  const label = (text: string) =>
    compact ? (
      <span className="sr-only">{`${text} ${user.email}`}</span>
    ) : (
      <>
        {text} <span className="sr-only">{user.email}</span>
      </>
    )
  const size = compact ? 'size-8 px-0!' : 'px-2!'
  return (
    <div className={compact ? 'flex gap-1' : 'flex flex-wrap gap-2'}>
      <Button
        size="sm"
        variant="ghost"
        className={size}
        title={compact ? 'Edit' : undefined}
        onClick={() => onEdit(user)}
      >
        <Pencil aria-hidden="true" className="size-4 shrink-0" />
        {label('Edit')}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={size}
        disabled={self}
        title={self ? 'Cannot change own status' : compact ? toggleLabel : undefined}
        onClick={() => onToggleStatus(user)}
      >
        {active ? (
          <UserX aria-hidden="true" className="size-4 shrink-0" />
        ) : (
          <UserCheck aria-hidden="true" className="size-4 shrink-0" />
        )}
        {label(toggleLabel)}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={`${size} text-red-700 hover:bg-red-50`}
        disabled={self}
        title={self ? 'Cannot delete self' : compact ? 'Delete' : undefined}
        onClick={() => onDelete(user)}
      >
        <Trash2 aria-hidden="true" className="size-4 shrink-0" />
        {label('Delete')}
      </Button>
    </div>
  )
}
