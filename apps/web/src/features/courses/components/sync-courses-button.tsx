import { RefreshCw } from 'lucide-react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { errorMessage } from '@/lib/api-error'
import { useSyncCourses } from '../api/sync-courses'

/** docs/product-rules.md §9: the sync message clears after 5 s, the button's label goes back after 3 s. */
export const SYNC_MESSAGE_MS = 5000
export const SYNC_LABEL_RESET_MS = 3000
/** The same labels as the companies sync button. */
export const SYNC_LABELS = {
  idle: 'Sync Courses',
  busy: 'Syncing...',
  done: 'Sync complete!',
  failed: 'Sync failed!',
} as const
export const SYNC_TEXTS = {
  success: 'Courses synced successfully!',
  unexpected: 'Sync completed but returned an unexpected response',
  failed: 'Failed to sync courses. Please try again.',
} as const

/** docs/product-rules.md §2 / §8 admin Sync Courses: the server's message first, the product-rules texts otherwise. */
export function SyncCoursesButton() {
  const sync = useSyncCourses()
  const { message, show } = useTimedMessage(SYNC_MESSAGE_MS)
  const outcome = useTimedMessage(SYNC_LABEL_RESET_MS)

  const run = () =>
    sync.mutate(undefined, {
      onSuccess: (result) => {
        if (result && typeof result === 'object' && result.success === true) {
          show(result.message || SYNC_TEXTS.success)
          outcome.show(SYNC_LABELS.done)
        } else {
          show(SYNC_TEXTS.unexpected, 'error')
          outcome.show(SYNC_LABELS.failed, 'error')
        }
      },
      onError: (error) => {
        show(errorMessage(error, SYNC_TEXTS.failed), 'error')
        outcome.show(SYNC_LABELS.failed, 'error')
      },
    })
  const label = sync.isPending ? SYNC_LABELS.busy : (outcome.message?.text ?? SYNC_LABELS.idle)

  return (
    <div className="flex flex-col items-end gap-2">
      <Button onClick={run} disabled={sync.isPending}>
        <RefreshCw aria-hidden="true" className={sync.isPending ? 'size-4 animate-spin' : 'size-4'} />
        <span aria-live="polite">{label}</span>
      </Button>
      {message && <Banner variant={message.variant}>{message.text}</Banner>}
    </div>
  )
}
