import {
  DISPATCH_NOTES_MAX,
  DISPATCH_TAG_MAX,
  DISPATCH_TAGS_MAX,
  dispatchCapMessage,
  parseDispatchCap,
  textLength,
  toDateInputValue,
  tooLongMessage,
  type Dispatch,
  type UpdateDispatchBody,
} from '@portal/shared'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { CapInput } from '@/components/ui/cap-input'
import { DateField } from '@/components/ui/date-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'

/**
 * What is wrong with a tag list for the server's limits (each tag, and how many), or null.
 * The field itself has no length limit, so nothing typed is cut.
 */
export function tagsProblem(tags: string[]): string | null {
  if (tags.length > DISPATCH_TAGS_MAX) return `At most ${DISPATCH_TAGS_MAX} tags (${tags.length} entered).`
  const long = tags.find((t) => textLength(t) > DISPATCH_TAG_MAX)
  return long === undefined
    ? null
    : `Each tag can be at most ${DISPATCH_TAG_MAX} characters ("${long.slice(0, 20)}…" has ${textLength(long)}).`
}

export const parseTags = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
]

/**
 * A dispatch's tags (one line, comma-separated, with that said under the field) and its notes
 * (counted against the server's limit), each on a row of its own in the form's two-column grid.
 */
export function TagsAndNotes({
  tags,
  notes,
  tagsError,
  notesRows,
  onTags,
  onNotes,
}: {
  tags: string
  notes: string
  tagsError?: string | undefined
  notesRows: number
  onTags: (value: string) => void
  onNotes: (value: string) => void
}) {
  const hintId = `${useId()}-tags`
  return (
    <>
      <div className="md:col-span-2">
        <Input
          label="Tags"
          value={tags}
          error={tagsError}
          aria-describedby={hintId}
          onChange={(e) => onTags(e.target.value)}
        />
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          Separate tags with commas.
        </p>
      </div>
      <div className="md:col-span-2">
        <Textarea
          label="Notes"
          rows={notesRows}
          limit={DISPATCH_NOTES_MAX}
          value={notes}
          onChange={(e) => onNotes(e.target.value)}
        />
      </div>
    </>
  )
}

type Draft = { cap: string; expiry: string; tags: string; notes: string }

const draftOf = (d: Dispatch): Draft => ({
  cap: String(d.registrationCap),
  expiry: toDateInputValue(d.expirationDate),
  tags: (d.tags ?? []).join(', '),
  notes: d.notes ?? '',
})

/** Only the fields that changed go to the provider (docs/product-decisions.md D4: provider first, then mirror). */
function changes(dispatch: Dispatch, draft: Draft): UpdateDispatchBody {
  const before = draftOf(dispatch)
  const body: UpdateDispatchBody = {}
  if (draft.cap.trim() !== before.cap) body.registrationCap = Number(draft.cap)
  if (draft.expiry !== before.expiry) body.expirationDate = draft.expiry || null
  const tags = parseTags(draft.tags)
  if (tags.join(',') !== parseTags(before.tags).join(',')) body.tags = tags
  if (draft.notes !== before.notes) body.notes = draft.notes
  return body
}

/** docs/product-decisions.md D10 admin controls: registration cap (0 = unlimited), expiry date, tags and notes. */
export function DispatchEditForm({
  dispatch,
  saving,
  onSave,
  onCancel,
}: {
  dispatch: Dispatch
  saving: boolean
  onSave: (body: UpdateDispatchBody) => void
  onCancel: () => void
}) {
  const id = useId()
  const [draft, setDraft] = useState(() => draftOf(dispatch))
  const [invalid, setInvalid] = useState<string | null>(null)
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (parseDispatchCap(draft.cap) === null) {
      setInvalid(dispatchCapMessage('Registration cap'))
      return
    }
    const tooLong = tagsProblem(parseTags(draft.tags)) ?? tooLongMessage('Notes', draft.notes, DISPATCH_NOTES_MAX)
    setInvalid(tooLong)
    if (tooLong) return
    const body = changes(dispatch, draft)
    if (Object.keys(body).length === 0) onCancel()
    else onSave(body)
  }

  return (
    <form onSubmit={submit} aria-label="Edit dispatch" className="mt-4 grid gap-4 md:grid-cols-2" noValidate>
      <div>
        <CapInput
          label="Registration cap"
          value={draft.cap}
          onChange={(e) => set('cap')(e.target.value)}
          aria-describedby={`${id}-cap`}
          aria-invalid={invalid ? true : undefined}
        />
        <p id={`${id}-cap`} className="mt-1 text-xs text-slate-600">
          0 means unlimited.
        </p>
      </div>
      <DateField label="SCORM Expiry Date" value={draft.expiry} onChange={set('expiry')} />
      <TagsAndNotes tags={draft.tags} notes={draft.notes} notesRows={4} onTags={set('tags')} onNotes={set('notes')} />
      {invalid && (
        <p role="alert" className="text-sm text-red-700 md:col-span-2">
          {invalid}
        </p>
      )}
      <div className="flex gap-2 md:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
