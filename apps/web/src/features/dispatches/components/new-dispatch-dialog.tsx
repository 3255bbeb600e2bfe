import {
  DISPATCH_NOTES_MAX,
  dispatchCapMessage,
  parseDispatchCap,
  tooLongMessage,
  type CreateDispatchBody,
  type Dispatch,
} from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CapInput } from '@/components/ui/cap-input'
import { CompanyPicker } from '@/components/ui/company-picker'
import { DateField } from '@/components/ui/date-field'
import { Link } from '@/components/ui/link'
import { Modal } from '@/components/ui/modal'
import { SearchablePicker } from '@/components/ui/searchable-picker'
import { Switch } from '@/components/ui/switch'
import { paths } from '@/config/paths'
import { conflictDispatchId, errorMessage } from '@/lib/api-error'
import { useSubmissionKey } from '@/lib/idempotency-key'
import { useCreateDispatch } from '../api/create-dispatch'
import { useCompanyOptions } from '@/lib/company-options'
import { companyDispatchesQueryOptions, useCourseOptions } from '../api/get-dispatch-options'
import { parseTags, TagsAndNotes, tagsProblem } from './dispatch-edit-form'

export const CREATE_FAILED = 'Failed to create dispatch'

type Draft = {
  companyId: string
  courseId: string
  cap: string
  expiry: string
  enabled: boolean
  notes: string
  tags: string
}
const EMPTY: Draft = { companyId: '', courseId: '', cap: '', expiry: '', enabled: true, notes: '', tags: '' }

type Problems = Partial<Record<'companyId' | 'courseId' | 'cap' | 'tags' | 'notes', string>>

/** The hint of a course the chosen company has a dispatch of already. */
export const ALREADY_DISPATCHED = 'already dispatched'
export const courseTakenText = (company: string) =>
  `${company} already has a dispatch of this course. Choose another course.`

/** What the course list says about the chosen company's courses. */
export const takenNote = (company: string, count: number) =>
  count === 0
    ? `${company} has no dispatch yet: every course can be chosen.`
    : `${company} has ${count} ${count === 1 ? 'course' : 'courses'} already, marked "${ALREADY_DISPATCHED}" and not choosable.`

/** The form's own checks, before anything is sent (the server checks them again). */
function problems(draft: Draft): Problems {
  const found: Problems = {}
  if (!draft.companyId) found.companyId = 'Choose a company.'
  if (!draft.courseId) found.courseId = 'Choose a course.'
  // Empty is allowed here: no cap (unlimited).
  if (draft.cap.trim() !== '' && parseDispatchCap(draft.cap) === null) found.cap = dispatchCapMessage('License cap')
  const tags = tagsProblem(parseTags(draft.tags))
  if (tags) found.tags = tags
  // Notes past the limit are refused, never cut: the count under the field says by how much.
  const notes = tooLongMessage('Notes', draft.notes, DISPATCH_NOTES_MAX)
  if (notes) found.notes = notes
  return found
}

/**
 * "New Dispatch" (admin): company and course picked from the mirror, license cap
 * (empty or 0 = unlimited), expiry date, enabled, notes and tags. A pair that has a dispatch
 * already is refused by the server with a link to that dispatch.
 */
export function NewDispatchDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (d: Dispatch) => void }) {
  const companies = useCompanyOptions()
  const courses = useCourseOptions()
  const create = useCreateDispatch()
  const submission = useSubmissionKey('new-dispatch')
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [shown, setShown] = useState<Problems>({})
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    const next = { ...draft, [key]: value }
    setDraft(next)
    // A message shown on submit goes as soon as its field is right; none is added while typing.
    const still = problems(next)
    setShown((before) => {
      const kept: Problems = {}
      for (const field of Object.keys(before) as (keyof Problems)[]) if (still[field]) kept[field] = still[field]
      return kept
    })
  }

  // The chosen company's dispatches (its detail, read afresh each time a company is chosen: one
  // created a minute ago counts), so the courses it has already are marked and cannot be chosen:
  // no 409 to meet one after another.
  const company = useQuery({
    ...companyDispatchesQueryOptions(draft.companyId),
    enabled: Boolean(draft.companyId),
    staleTime: 0,
  })
  const companyName = companies.data?.find((c) => c.id === draft.companyId)?.name || draft.companyId
  const taken = useMemo(
    () => new Map((company.data?.dispatches ?? []).map((d) => [d.courseId, d.id] as const)),
    [company.data],
  )
  const takenId = draft.courseId ? taken.get(draft.courseId) : undefined

  const courseOptions = useMemo(
    () =>
      (courses.data ?? []).map((c) => ({
        value: c.id,
        label: c.title || c.id,
        ...(taken.has(c.id) ? { hint: ALREADY_DISPATCHED, disabled: true } : {}),
      })),
    [courses.data, taken],
  )

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = problems(draft)
    setShown(found)
    if (Object.keys(found).length > 0 || takenId) return
    const body: CreateDispatchBody = {
      companyId: draft.companyId,
      courseId: draft.courseId,
      registrationCap: draft.cap.trim() === '' ? 0 : Number(draft.cap),
      enabled: draft.enabled,
      notes: draft.notes,
      tags: parseTags(draft.tags),
      ...(draft.expiry ? { expirationDate: draft.expiry } : {}),
    }
    // A retry of the same values reuses the key: if SCORM Cloud made the dispatch but the answer
    // was lost, the server answers with that dispatch instead of a conflict with itself.
    create.mutate(
      { body, key: submission.keyFor(body) },
      {
        onSuccess: (dispatch) => {
          submission.succeeded()
          onCreated(dispatch)
        },
      },
    )
  }

  const existing = conflictDispatchId(create.error)
  const footer = (
    <>
      <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
        Cancel
      </Button>
      <Button type="submit" form="new-dispatch-form" disabled={create.isPending}>
        {create.isPending ? 'Creating...' : 'Create Dispatch'}
      </Button>
    </>
  )

  return (
    <Modal title="New Dispatch" onClose={onClose} footer={footer} className="max-w-2xl">
      <form id="new-dispatch-form" onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-2">
        {/* Each list on a row of its own: long course names need the whole width. */}
        <div className="md:col-span-2">
          <CompanyPicker
            value={draft.companyId}
            onChange={(v) => set('companyId', v)}
            required
            error={shown.companyId}
            loadFailed="Failed to fetch destinations"
          />
        </div>
        <div className="md:col-span-2">
          <SearchablePicker
            label="Course"
            searchLabel="Search courses"
            options={courseOptions}
            value={draft.courseId}
            onChange={(v) => set('courseId', v)}
            required
            loading={courses.isPending}
            error={
              (takenId ? courseTakenText(companyName) : shown.courseId) ??
              (courses.error ? errorMessage(courses.error, 'Failed to fetch courses') : null)
            }
            note={
              !draft.companyId ? null : company.isPending ? (
                `Checking which courses ${companyName} has...`
              ) : company.error ? (
                errorMessage(company.error, 'Could not check which courses the company has.')
              ) : takenId ? (
                <Link to={paths.dispatch.getHref(takenId)}>View the existing dispatch</Link>
              ) : (
                takenNote(companyName, taken.size)
              )
            }
          />
        </div>
        <div>
          <CapInput
            label="License cap"
            value={draft.cap}
            placeholder="Unlimited"
            aria-invalid={shown.cap ? true : undefined}
            aria-describedby="new-dispatch-cap-hint"
            onChange={(e) => set('cap', e.target.value)}
          />
          <p
            id="new-dispatch-cap-hint"
            className={shown.cap ? 'mt-1 text-xs font-medium text-red-700' : 'mt-1 text-xs text-slate-600'}
          >
            {shown.cap ?? 'Empty or 0 means unlimited.'}
          </p>
        </div>
        <DateField label="SCORM Expiry Date" value={draft.expiry} onChange={(v) => set('expiry', v)} />
        <div className="flex items-center gap-3 md:col-span-2">
          <Switch checked={draft.enabled} onChange={(v) => set('enabled', v)} label="Enabled" />
          <span aria-hidden="true" className="text-sm text-slate-800">
            Enabled
          </span>
        </div>
        <TagsAndNotes
          tags={draft.tags}
          notes={draft.notes}
          tagsError={shown.tags}
          notesRows={3}
          onTags={(v) => set('tags', v)}
          onNotes={(v) => set('notes', v)}
        />
        {create.isError && (
          <Banner variant="error" className="md:col-span-2">
            {errorMessage(create.error, CREATE_FAILED)}
            {existing && (
              <>
                {' '}
                <Link to={paths.dispatch.getHref(existing)}>View the existing dispatch</Link>
              </>
            )}
          </Banner>
        )}
      </form>
    </Modal>
  )
}
