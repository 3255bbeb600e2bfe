import type { UiAction } from '@portal/shared'
import { Plus, Users } from 'lucide-react'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { TitledSection } from '@/components/ui/card-section'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import type { User } from '@/types/api'
import { useDeleteUser } from '../api/change-user'
import { useDestinations } from '../api/get-destinations'
import { useUsers } from '../api/get-users'
import { useStatusToggle } from '../hooks/use-status-toggle'
import { UserForm } from './user-form'
import { UsersTable } from './users-table'
import { useViewedEvent } from '@/hooks/use-viewed-event'

export const SETTINGS_LOAD_FAILED = 'Failed to fetch settings data'
export const DELETE_FAILED = 'Failed to delete user.'

type FormState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; user: User }

/**
 * docs/product-rules.md §2 "Settings: User Management". `editUserId` opens that user's Edit form once the list
 * is loaded (the /admin/users/{id} page links here with it).
 */
export function UserManagement({
  currentUserId,
  editUserId,
  onEvent,
}: {
  currentUserId: string
  editUserId?: string | null
  onEvent: (action: UiAction, details?: Record<string, unknown>) => void
}) {
  const users = useUsers(currentUserId)
  const destinations = useDestinations()
  const status = useStatusToggle()
  const remove = useDeleteUser()
  const [form, setForm] = useState<FormState>({ mode: 'closed' })
  const [deleting, setDeleting] = useState<User | null>(null)
  const [deleteError, setDeleteError] = useState<string | null>(null)

  useViewedEvent(onEvent, 'SETTINGS_VIEWED', { section: 'User Management' })

  const list = users.data?.users
  const [openedFor, setOpenedFor] = useState<string | null>(null)
  if (editUserId && list && openedFor !== editUserId) {
    setOpenedFor(editUserId)
    const user = list.find((u) => u.id === editUserId)
    if (user) setForm({ mode: 'edit', user })
  }

  const loadFailed = Boolean(users.error || users.data?.loadError || destinations.error)
  const confirmDelete = () => {
    if (!deleting) return
    setDeleteError(null)
    remove.mutate(deleting.id, {
      onSuccess: () => setDeleting(null),
      onError: () => {
        setDeleting(null)
        setDeleteError(DELETE_FAILED)
      },
    })
  }

  return (
    <TitledSection
      id="user-management"
      title="User Management"
      className="space-y-4"
      aside={
        <Button onClick={() => setForm({ mode: 'create' })} disabled={form.mode !== 'closed'}>
          <Plus aria-hidden="true" className="size-4" />
          Add User
        </Button>
      }
    >
      {loadFailed && <Banner variant="error">{SETTINGS_LOAD_FAILED}</Banner>}
      {status.error && <Banner variant="error">{status.error}</Banner>}
      {deleteError && <Banner variant="error">{deleteError}</Banner>}
      {form.mode !== 'closed' && (
        <UserForm
          key={form.mode === 'edit' ? form.user.id : 'create'}
          user={form.mode === 'edit' ? form.user : null}
          destinations={destinations.data ?? []}
          onCancel={() => setForm({ mode: 'closed' })}
          onSaved={() => setForm({ mode: 'closed' })}
        />
      )}
      {users.isPending ? (
        <Spinner label="Loading users..." />
      ) : !list ? null : list.length === 0 ? (
        <EmptyState icon={Users} title="No users found" description="Get started by creating a new user" />
      ) : (
        <UsersTable
          users={list}
          currentUserId={currentUserId}
          onEdit={(user) => setForm({ mode: 'edit', user })}
          onToggleStatus={status.toggle}
          onDelete={(user) => {
            setDeleteError(null)
            setDeleting(user)
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete user?"
          confirmLabel="Delete"
          tone="danger"
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        >
          Are you sure you want to delete {deleting.email}? This cannot be undone.
        </ConfirmDialog>
      )}
    </TitledSection>
  )
}
