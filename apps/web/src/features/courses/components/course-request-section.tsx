import {
  LICENSES_RANGE_MESSAGE,
  MAX_LICENSES,
  MIN_LICENSES,
  REQUEST_NOTES_MAX,
  toLicenses,
  tooLongMessage,
  type CourseDetails,
} from '@portal/shared'
import { CheckCircle2, Send } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CardSection } from '@/components/ui/card-section'
import { FormActions } from '@/components/ui/form-actions'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { errorMessage } from '@/lib/api-error'
import { useCreateCourseRequest } from '../api/create-course-request'

/** docs/product-rules.md §9: the request success banner clears after 5 s. */
export const REQUEST_MESSAGE_MS = 5000
export const REQUEST_TEXTS = {
  success: 'Course request submitted successfully!',
  failed: 'Failed to submit request. Please try again.',
  assigned: 'This course is already assigned to your account.',
} as const

function AlreadyAssigned() {
  return (
    <section
      aria-labelledby="already-assigned"
      className="flex items-start gap-3 rounded-lg border border-green-300 bg-green-50 p-4"
    >
      <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
      <div>
        <h2 id="already-assigned" className="font-semibold text-green-900">
          Already Assigned
        </h2>
        <p className="text-sm text-green-800">{REQUEST_TEXTS.assigned}</p>
      </div>
    </section>
  )
}

/**
 * docs/product-rules.md §2 request form (clients only): licenses (number, at least 1; non-numeric is 1, docs/product-rules.md §5)
 * and notes. `openAtOnce` is `?request=true`. A client who cannot request sees Already Assigned.
 */
export function CourseRequestSection({
  course,
  openAtOnce,
  onSubmitted,
}: {
  course: CourseDetails
  openAtOnce: boolean
  onSubmitted?: () => void
}) {
  const [open, setOpen] = useState(openAtOnce)
  const [licenses, setLicenses] = useState(String(MIN_LICENSES))
  const [notes, setNotes] = useState('')
  const [licensesError, setLicensesError] = useState<string | null>(null)
  const create = useCreateCourseRequest(course.id, onSubmitted)
  const { message, show } = useTimedMessage(REQUEST_MESSAGE_MS)
  const formId = useId()

  if (!course.canRequest && !message) return <AlreadyAssigned />

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // docs/product-rules.md §5: text that is not a number is 1; a number out of range is refused, never
    // replaced by 1. Notes past their limit are refused too (the count under them says why).
    const count = toLicenses(licenses)
    setLicensesError(count === null ? LICENSES_RANGE_MESSAGE : null)
    if (count === null || tooLongMessage('Notes', notes.trim(), REQUEST_NOTES_MAX)) return
    create.mutate(
      {
        courseId: course.id,
        courseTitle: course.title,
        licenses: count,
        notes: notes.trim(),
      },
      {
        onSuccess: () => {
          show(REQUEST_TEXTS.success)
          setOpen(false)
          setLicenses(String(MIN_LICENSES))
          setNotes('')
        },
        onError: (error) => show(errorMessage(error, REQUEST_TEXTS.failed), 'error'),
      },
    )
  }

  return (
    <CardSection
      id={formId}
      title="Request This Course"
      aside={
        !open && (
          <Button onClick={() => setOpen(true)}>
            <Send aria-hidden="true" className="size-4" />
            Request Course
          </Button>
        )
      }
    >
      {message && (
        <Banner variant={message.variant} className="mt-4">
          {message.text}
        </Banner>
      )}
      {open && (
        <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
          <Input
            label="Number of Licenses"
            type="number"
            min={MIN_LICENSES}
            max={MAX_LICENSES}
            step={1}
            inputMode="numeric"
            value={licenses}
            error={licensesError}
            onChange={(event) => {
              setLicenses(event.target.value)
              setLicensesError(null)
            }}
            required
          />
          <Textarea
            label="Notes"
            placeholder="Any specific requirements or questions?"
            limit={REQUEST_NOTES_MAX}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
          />
          <FormActions
            busy={create.isPending}
            onCancel={() => setOpen(false)}
            submitLabel={create.isPending ? 'Submitting...' : 'Submit Request'}
          />
        </form>
      )}
    </CardSection>
  )
}
