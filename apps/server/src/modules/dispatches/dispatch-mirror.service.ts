import type { DispatchSchema } from '../scorm-cloud/scorm-cloud.types'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { mapDispatch, type DispatchRow } from '../sync/sync.mapper'
import type { PairCompany, PairCourse } from './dispatch-pair.repository'

/** The sync's upsert of mirror dispatches, handed in by app.ts (the sync module owns that SQL). */
export interface DispatchMirror {
  upsertDispatches(
    rows: (DispatchRow & { courseTitle: string; destinationName: string })[],
    tx?: DbOrTx,
  ): Promise<unknown>
}

/**
 * Writes SCORM Cloud's read of a dispatch into the mirror with the sync's own upsert, so the
 * row is exactly what the next sync would write (and the data-version triggers on `dispatch`
 * move the list caches on). Titles the provider leaves out fall back like the sync's.
 */
export async function mirrorProviderDispatch(
  mirror: DispatchMirror,
  id: string,
  fresh: DispatchSchema,
  pair: { company: PairCompany; course: PairCourse },
  tx?: DbOrTx,
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
  await mirror.upsertDispatches(
    [
      {
        ...mapped,
        courseTitle: mapped.courseTitle ?? (pair.course.title || pair.course.id),
        destinationName: mapped.destinationName ?? (pair.company.name || pair.company.id),
      },
    ],
    tx,
  )
}

/** An expiry date has passed (a client may no longer download the package). */
export const isExpired = (expirationDate: Date | null, now = Date.now()) =>
  expirationDate !== null && expirationDate.getTime() < now
