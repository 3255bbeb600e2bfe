import {
  COURSE_TEXT_LIMITS,
  tooLongMessage,
  COURSE_LEVELS,
  DESCRIPTION_MAX_BYTES,
  DESCRIPTION_TOO_LARGE,
  type CourseDetails,
  type CourseLevel,
  type UpdateCourseDetails,
} from '@portal/shared'
import { lazy, Suspense, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { FormActions } from '@/components/ui/form-actions'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api-error'
import { useUpdateCourseDetails } from '../api/update-course-details'

/** Quill and its CSS load in their own chunk, only when an admin opens this form. */
const RichTextEditor = lazy(() => import('./rich-text-editor'))

export const EDIT_TEXTS = {
  success: 'Course details updated successfully!',
  failed: 'Failed to update course details. Please try again.',
  noCourse: 'Course data is not available.',
} as const

const LEVEL_OPTIONS = [{ value: '', label: 'Not specified' }, ...COURSE_LEVELS.map((l) => ({ value: l, label: l }))]

const formOf = (course: CourseDetails): Required<UpdateCourseDetails> => ({
  title: course.title,
  imageUrl: course.imageUrl ?? '',
  summary: course.summary,
  description: course.description,
  duration: course.duration,
  level: (COURSE_LEVELS as readonly string[]).includes(course.level) ? (course.level as CourseLevel) : '',
  isRequestable: course.isRequestable,
  demoUrl: course.demoUrl ?? '',
})

/** The form's text fields. */
type TextKey = 'title' | 'imageUrl' | 'summary' | 'duration' | 'demoUrl'

/** docs/product-rules.md §2 edit form (admin). The server sanitises the description again and checks the URLs. */
export function CourseEditForm({
  course,
  onSaved,
  onCancel,
}: {
  course: CourseDetails | undefined
  onSaved: () => void
  onCancel: () => void
}) {
  const [form, setForm] = useState(() => (course ? formOf(course) : null))
  const [error, setError] = useState<string | null>(null)
  const update = useUpdateCourseDetails(course?.id ?? '')
  const set = <K extends keyof UpdateCourseDetails>(key: K, value: Required<UpdateCourseDetails>[K]) =>
    setForm((current) => (current ? { ...current, [key]: value } : current))

  if (!course?.id || !form) return <Banner variant="error">{EDIT_TEXTS.noCourse}</Banner>
  /** A text field's value and its change handler. */
  const text = (key: TextKey) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    const tooLong =
      tooLongMessage('Title', form.title, COURSE_TEXT_LIMITS.title) ??
      tooLongMessage('Image URL', form.imageUrl, COURSE_TEXT_LIMITS.url) ??
      tooLongMessage('Summary', form.summary, COURSE_TEXT_LIMITS.summary) ??
      tooLongMessage('Duration', form.duration, COURSE_TEXT_LIMITS.duration) ??
      tooLongMessage('Demo URL', form.demoUrl, COURSE_TEXT_LIMITS.url)
    if (tooLong) {
      setError(tooLong)
      return
    }
    if (new TextEncoder().encode(form.description).length > DESCRIPTION_MAX_BYTES) {
      setError(DESCRIPTION_TOO_LARGE)
      return
    }
    update.mutate(form, {
      onSuccess: onSaved,
      onError: (e) => setError(errorMessage(e, EDIT_TEXTS.failed)),
    })
  }

  return (
    <form
      onSubmit={submit}
      aria-labelledby="edit-course"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-xs"
    >
      <h2 id="edit-course" className="text-lg font-semibold text-slate-900">
        Edit Course
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      <Input label="Title" limit={COURSE_TEXT_LIMITS.title} {...text('title')} />
      <Input label="Image URL" type="url" limit={COURSE_TEXT_LIMITS.url} placeholder="https://" {...text('imageUrl')} />
      <Textarea label="Summary" limit={COURSE_TEXT_LIMITS.summary} {...text('summary')} />
      <Suspense fallback={<Spinner label="Loading editor..." />}>
        <RichTextEditor
          label="Description"
          initialValue={course.description}
          onChange={(html) => set('description', html)}
        />
      </Suspense>
      <div className="grid gap-4 md:grid-cols-2">
        <Input label="Duration" limit={COURSE_TEXT_LIMITS.duration} {...text('duration')} />
        <Select
          label="Level"
          value={form.level}
          options={LEVEL_OPTIONS}
          onChange={(e) => set('level', e.target.value as CourseLevel)}
        />
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          checked={form.isRequestable}
          onChange={(e) => set('isRequestable', e.target.checked)}
          className="size-4 rounded border-slate-300"
        />
        Requestable by clients
      </label>
      <Input label="Demo URL" type="url" limit={COURSE_TEXT_LIMITS.url} placeholder="https://" {...text('demoUrl')} />
      <FormActions
        busy={update.isPending}
        onCancel={onCancel}
        submitLabel={update.isPending ? 'Saving...' : 'Save Changes'}
      />
    </form>
  )
}
