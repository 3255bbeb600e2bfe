import type { DispatchSchema } from '../scorm-cloud/scorm-cloud.types'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { mapDispatch } from '../sync/sync.mapper'
import { syncRepository } from '../sync/sync.repository'
import type { PairCompany, PairCourse } from './dispatch-pair.repository'

/**
 * Writes SCORM Cloud's read of a dispatch into the mirror with the sync's own upsert, so the
 * row is exactly what the next sync would write (and the data-version triggers on `dispatch`
 * move the list caches on). Titles the provider leaves out fall back like the sync's.
 */
export async function mirrorProviderDispatch(
  tx: DbOrTx,
  id: string,
  fresh: DispatchSchema,
  pair: { company: PairCompany; course: PairCourse },
): Promise<void> {
  const mapped = mapDispatch({
    id,
    data: {
      ...fresh,
      courseId: fresh.courseId || pair.course.id,
      destinationId: fresh.destinationId || pair.company.id,
    },
  })
  if (!mapped) throw new AppError('UPSTREAM_FAILED', 'SCORM Cloud sent a dispatch the portal cannot read.')
  await syncRepository.upsertDispatches(tx, [
    {
      ...mapped,
      courseTitle: mapped.courseTitle ?? (pair.course.title || pair.course.id),
      destinationName: mapped.destinationName ?? (pair.company.name || pair.company.id),
    },
  ])
}

/** An expiry date has passed (a client may no longer download the package). */
export const isExpired = (expirationDate: Date | null, now = Date.now()) =>
  expirationDate !== null && expirationDate.getTime() < now
