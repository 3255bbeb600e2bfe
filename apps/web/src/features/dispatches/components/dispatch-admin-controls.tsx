import type { Dispatch, UpdateDispatchBody } from '@portal/shared'
import { Pencil, Power, RotateCcw } from 'lucide-react'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { CardSection } from '@/components/ui/card-section'
import { errorMessage } from '@/lib/api-error'
import { useResetRegistrationCount } from '../api/reset-registration-count'
import { useUpdateDispatch } from '../api/update-dispatch'
import { DispatchEditForm } from './dispatch-edit-form'
import { clientName, courseName } from './view-details-link'

/** docs/product-rules.md §9: edit success banners clear after 3 s. */
export const SUCCESS_MESSAGE_MS = 3000
export const UPDATE_FAILED = 'Failed to update dispatch'
export const RESET_FAILED = 'Failed to reset the registration count'

/** The confirmation states the current count; the registrations themselves stay. */
export const resetCountText = (dispatch: Dispatch) =>
  `The registration count of ${courseName(dispatch)} for ${clientName(dispatch)} is ${dispatch.registrationCount} now. ` +
  'It will count again from 0, freeing the licenses; the learners and their results stay.'

/**
 * docs/product-decisions.md D10: admins enable or disable a dispatch and edit its cap, expiry, tags and notes.
 * The provider is written first; when it refuses, its message shows and nothing changes here.
 */
export function DispatchAdminControls({ dispatch }: { dispatch: Dispatch }) {
  const update = useUpdateDispatch(dispatch.id)
  const resetCount = useResetRegistrationCount(dispatch.id)
  const [confirming, setConfirming] = useState(false)
  const [confirmingReset, setConfirmingReset] = useState(false)
  const [editing, setEditing] = useState(false)
  const success = useTimedMessage(SUCCESS_MESSAGE_MS)

  const save = (body: UpdateDispatchBody, message: string, after: () => void) => {
    success.clear()
    update.mutate(body, {
      // The server's message, when it sends one, says the change is upstream but not yet here.
      onSuccess: (saved) => {
        success.show(saved.message ?? message)
        after()
      },
      onError: () => setConfirming(false),
    })
  }

  const toggleLabel = dispatch.enabled ? 'Disable Dispatch' : 'Enable Dispatch'

  return (
    <CardSection id="admin-controls" title="Admin Controls">
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
        <Button variant="secondary" onClick={() => setConfirmingReset(true)} disabled={resetCount.isPending}>
          <RotateCcw aria-hidden="true" className="size-4" />
          Reset registration count
        </Button>
      </div>
      <div className="mt-4 space-y-2">
        {update.isError && <Banner variant="error">{errorMessage(update.error, UPDATE_FAILED)}</Banner>}
        {resetCount.isError && <Banner variant="error">{errorMessage(resetCount.error, RESET_FAILED)}</Banner>}
        {success.message && <Banner variant="success">{success.message.text}</Banner>}
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
      {confirmingReset && (
        <ConfirmDialog
          title="Reset the registration count?"
          confirmLabel={resetCount.isPending ? 'Resetting...' : 'Reset count'}
          busy={resetCount.isPending}
          onCancel={() => setConfirmingReset(false)}
          onConfirm={() => {
            success.clear()
            resetCount.mutate(undefined, {
              onSuccess: () => success.show('Registration count reset.'),
              onSettled: () => setConfirmingReset(false),
            })
          }}
        >
          {resetCountText(dispatch)}
        </ConfirmDialog>
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
    </CardSection>
  )
}
