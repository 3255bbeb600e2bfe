import { INSTANT_RANGE_MESSAGE, isStorableInstant, type PostbackRegistration } from '@portal/shared'
import type { RegistrationSchema } from '../scorm-cloud/scorm-cloud.types'
import type { Db, DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { mapRegistration, parseDate } from '../sync/sync.mapper'
import type { SyncRepository } from '../sync/sync.repository'

const DATE_FIELDS = ['updated', 'firstAccessDate', 'lastAccessDate', 'completedDate', 'createdDate'] as const

/**
 * Registration postbacks (docs/scorm-cloud-api.md §9): SCORM Cloud retries and reorders them, so the store
 * keeps the newest state per registration by the same rule as the sync (sync.repository's
 * upsertRegistrations), and a repeated or older postback changes nothing.
 */
export function createWebhooksService(deps: {
  db: Db
  /** The sync's mirror writes: a postback is stored by the same rule as a sync run. */
  mirror: Pick<SyncRepository, 'dispatchCourses' | 'upsertRegistrations'>
  /** The alert evaluation of the postback's dispatch, sent as a job in the postback's transaction. */
  alerts: { notePostback(dispatchId: string, tx: DbOrTx): Promise<void> }
}) {
  const { db, mirror, alerts } = deps
  return {
    async storeRegistration(body: PostbackRegistration): Promise<{ message: string }> {
      // The schema checked the shapes; a date we cannot read would silently become "none", and
      // one the mirror cannot store would fail the write as a 500 that SCORM Cloud retries
      // forever: both are a 400, before anything is written.
      for (const field of DATE_FIELDS) {
        const value = body[field]
        if (value === undefined || value === '') continue
        const date = parseDate(value)
        const problem = !date ? 'must be an ISO 8601 date' : !isStorableInstant(date) ? INSTANT_RANGE_MESSAGE : null
        if (problem) {
          throw new AppError('VALIDATION_FAILED', `${field} ${problem}.`, { details: [{ field, message: problem }] })
        }
      }
      const row = mapRegistration(body as RegistrationSchema)
      if (row === null) {
        throw new AppError('VALIDATION_FAILED', 'The registration has no id.', {
          details: [{ field: 'id', message: 'must not be blank' }],
        })
      }
      if (row === 'ignore') {
        return { message: `Ignored: registration ${body.id} has no dispatchId, so it is not a dispatch registration.` }
      }
      const answer = await db.transaction(async (tx: DbOrTx) => {
        const courseId = (await mirror.dispatchCourses([row.dispatchId], tx)).get(row.dispatchId)
        if (courseId === undefined) {
          // Answered 200 so SCORM Cloud stops retrying: the dispatch's next sync run also reads
          // this registration, which changed after that run's cursor.
          return { message: `Ignored: dispatch ${row.dispatchId} is not in the mirror yet; the next sync brings it.` }
        }
        const counts = await mirror.upsertRegistrations([{ ...row, courseId: row.courseId ?? courseId }], tx)
        await alerts.notePostback(row.dispatchId, tx)
        if (counts.created > 0) return { message: 'Registration stored.' }
        if (counts.updated > 0) return { message: 'Registration updated.' }
        return { message: 'Unchanged: this state or a newer one is already stored.' }
      })
      return answer
    },
  }
}
export type WebhooksService = ReturnType<typeof createWebhooksService>
