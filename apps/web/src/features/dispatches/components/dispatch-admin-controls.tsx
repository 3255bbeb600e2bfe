import type { Dispatch, UpdateDispatchBody } from '@portal/shared'
import { Pencil, Power } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { errorMessage } from '@/lib/api-error'
import { useUpdateDispatch } from '../api/update-dispatch'
import { DispatchEditForm } from './dispatch-edit-form'
import { clientName, courseName } from './view-details-link'

/** SPEC §9: edit success banners clear after 3 s. */
export const SUCCESS_MESSAGE_MS = 3000
export const UPDATE_FAILED = 'Failed to update dispatch'

/**
 * DECISIONS.md: admins enable or disable a dispatch and edit its cap, expiry, tags and notes.
 * The provider is written first; when it refuses, its message shows and nothing changes here.
 */
export function DispatchAdminControls({ dispatch }: { dispatch: Dispatch }) {
  const update = useUpdateDispatch(dispatch.id)
  const [confirming, setConfirming] = useState(false)
  const [editing, setEditing] = useState(false)
  const [success, setSuccess] = useState<string | null>(null)

  useEffect(() => {
    if (!success) return
    const timer = setTimeout(() => setSuccess(null), SUCCESS_MESSAGE_MS)
    return () => clearTimeout(timer)
  }, [success])

  const save = (body: UpdateDispatchBody, message: string, after: () => void) => {
    setSuccess(null)
    update.mutate(body, {
      onSuccess: () => {
        setSuccess(message)
        after()
      },
      onError: () => setConfirming(false),
    })
  }

  const toggleLabel = dispatch.enabled ? 'Disable Dispatch' : 'Enable Dispatch'

  return (
    <section aria-labelledby="admin-controls" className="rounded-lg border border-slate-200 bg-white p-6 shadow-xs">
      <h2 id="admin-controls" className="text-lg font-semibold text-slate-900">
        Admin Controls
      </h2>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button
          variant={dispatch.enabled ? 'danger' : 'primary'}
          onClick={() => setConfirming(true)}
          disabled={update.isPending}
        >
          <Power aria-hidden="true" className="size-4" />
          {toggleLabel}
        </Button>
        {!editing && (
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={update.isPending}>
            <Pencil aria-hidden="true" className="size-4" />
            Edit Dispatch
          </Button>
        )}
      </div>
      <div className="mt-4 space-y-2">
        {update.isError && <Banner variant="error">{errorMessage(update.error, UPDATE_FAILED)}</Banner>}
        {success && <Banner variant="success">{success}</Banner>}
      </div>
      {editing && (
        <DispatchEditForm
          dispatch={dispatch}
          saving={update.isPending}
          onCancel={() => {
            setEditing(false)
            update.reset()
          }}
          onSave={(body) => save(body, 'Dispatch updated successfully.', () => setEditing(false))}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={dispatch.enabled ? 'Disable this dispatch?' : 'Enable this dispatch?'}
          confirmLabel={update.isPending ? 'Saving...' : toggleLabel}
          tone={dispatch.enabled ? 'danger' : 'primary'}
          busy={update.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            save({ enabled: !dispatch.enabled }, dispatch.enabled ? 'Dispatch disabled.' : 'Dispatch enabled.', () =>
              setConfirming(false),
            )
          }
        >
          {dispatch.enabled
            ? `Learners of ${clientName(dispatch)} will not be able to launch ${courseName(dispatch)} until it is enabled again.`
            : `Learners of ${clientName(dispatch)} will be able to launch ${courseName(dispatch)} again.`}
        </ConfirmDialog>
      )}
    </section>
  )
}
