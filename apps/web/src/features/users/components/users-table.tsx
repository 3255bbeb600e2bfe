import { defaultUsername, formatDateTime } from '@portal/shared'
import { format } from 'date-fns'
import { Pencil, Trash2, UserCheck, UserX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { User } from '@/types/api'
import { RoleBadge, StatusBadge } from './user-badges'

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase'
const td = 'px-4 py-3 align-middle'

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

/** SPEC §2 Settings users table. Admins cannot suspend or delete themselves (SPEC §5). */
export function UsersTable({ users, currentUserId, onEdit, onToggleStatus, onDelete }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="bg-slate-50">
          <tr>
            {['User', 'Role', 'Status', 'Client', 'Created', 'Last Login', 'Actions'].map((header) => (
              <th key={header} scope="col" className={th}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {users.map((user) => {
            const self = user.id === currentUserId
            const name = shownUsername(user)
            const active = user.status === 'active'
            return (
              <tr key={user.id} className="hover:bg-slate-50">
                <td className={td}>
                  <div className="flex items-center gap-3">
                    <span
                      aria-hidden="true"
                      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-800"
                    >
                      {name.charAt(0).toUpperCase() || '?'}
                    </span>
                    <div>
                      <div className="font-medium text-slate-900">{name}</div>
                      <div className="text-xs text-slate-600">{user.email || 'No Email'}</div>
                    </div>
                  </div>
                </td>
                <td className={td}>
                  <RoleBadge role={user.role} />
                </td>
                <td className={td}>
                  <StatusBadge status={user.status} />
                </td>
                <td className={td}>{user.destinationName || '-'}</td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>{createdDay(user.createdAt)}</td>
                <td className={`${td} whitespace-nowrap`}>{lastLoginText(user.lastLogin)}</td>
                <td className={td}>
                  <div className="flex gap-1">
                    <Button size="sm" variant="ghost" onClick={() => onEdit(user)}>
                      <Pencil aria-hidden="true" className="size-4" />
                      Edit <span className="sr-only">{user.email}</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={self}
                      title={self ? 'Cannot change own status' : undefined}
                      onClick={() => onToggleStatus(user)}
                    >
                      {active ? (
                        <UserX aria-hidden="true" className="size-4" />
                      ) : (
                        <UserCheck aria-hidden="true" className="size-4" />
                      )}
                      {active ? 'Suspend' : 'Activate'} <span className="sr-only">{user.email}</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-red-700 hover:bg-red-50"
                      disabled={self}
                      title={self ? 'Cannot delete self' : undefined}
                      onClick={() => onDelete(user)}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Delete <span className="sr-only">{user.email}</span>
                    </Button>
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
