import { Banner } from '@/components/ui/banner'
import { Switch } from '@/components/ui/switch'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { useUpdateCourseVisibility } from '../api/update-course-visibility'

/** docs/product-rules.md §9: visibility success and error banners clear after 3 s. */
export const VISIBILITY_MESSAGE_MS = 3000
export const VISIBILITY_FAILED = 'Failed to update course visibility'

/** docs/product-rules.md §2 admin visibility switch: hidden courses never reach non-admins. */
export function CourseVisibilityControl({ courseId, isVisible }: { courseId: string; isVisible: boolean }) {
  const update = useUpdateCourseVisibility(courseId)
  const { message, show } = useTimedMessage(VISIBILITY_MESSAGE_MS)

  const toggle = (next: boolean) =>
    update.mutate(next, {
      onSuccess: () => show(`Course visibility updated to ${next ? 'visible' : 'hidden'}`),
      onError: () => show(VISIBILITY_FAILED, 'error'),
    })

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-3">
        <span className="text-sm font-medium text-slate-800">
          Visibility: <span className="font-semibold">{isVisible ? 'Visible' : 'Hidden'}</span>
        </span>
        <Switch checked={isVisible} onChange={toggle} label="Course visibility" disabled={update.isPending} />
      </div>
      {message && <Banner variant={message.variant}>{message.text}</Banner>}
    </div>
  )
}
