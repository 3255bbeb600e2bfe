import { defaultUsername, formatDateTime } from '@portal/shared'
import { format } from 'date-fns'
import { Pencil, Trash2, UserCheck, UserX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ResponsiveTable, type Column } from '@/components/ui/responsive-table'
import type { User } from '@/types/api'
import { RoleBadge, StatusBadge } from './user-badges'

/** SPEC §2: username, else the part of the email before @. */
export const shownUsername = (user: User) => user.username || defaultUsername(user.email ?? '')

/** SPEC §2: Created as YYYY-MM-DD; Last Login as date and time, or - when empty. */
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

/** SPEC §2 Settings users table (cards below 1024 px). Admins cannot suspend or delete themselves (SPEC §5). */
export function UsersTable({ users, currentUserId, onEdit, onToggleStatus, onDelete }: Props) {
  const columns: Column<User>[] = [
    {
      header: 'User',
      primary: true,
      cell: (user) => {
        const name = shownUsername(user)
        return (
          <div className="flex min-w-0 items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-800"
            >
              {name.charAt(0).toUpperCase() || '?'}
            </span>
            <div className="min-w-0">
              <div className="font-medium break-words text-slate-900">{name}</div>
              <div className="text-xs break-all text-slate-600">{user.email || 'No Email'}</div>
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
      cell: (user) => (
        <UserRowActions
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

function UserRowActions({
  user,
  self,
  onEdit,
  onToggleStatus,
  onDelete,
}: Omit<Props, 'users' | 'currentUserId'> & { user: User; self: boolean }) {
  const active = user.status === 'active'
  return (
    <div className="flex flex-wrap gap-1 whitespace-nowrap">
      <Button size="sm" variant="ghost" className="px-2" onClick={() => onEdit(user)}>
        <Pencil aria-hidden="true" className="size-4" />
        Edit <span className="sr-only">{user.email}</span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="px-2"
        disabled={self}
        title={self ? 'Cannot change own status' : undefined}
        onClick={() => onToggleStatus(user)}
      >
        {active ? <UserX aria-hidden="true" className="size-4" /> : <UserCheck aria-hidden="true" className="size-4" />}
        {active ? 'Suspend' : 'Activate'} <span className="sr-only">{user.email}</span>
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="px-2 text-red-700 hover:bg-red-50"
        disabled={self}
        title={self ? 'Cannot delete self' : undefined}
        onClick={() => onDelete(user)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete <span className="sr-only">{user.email}</span>
      </Button>
    </div>
  )
}
