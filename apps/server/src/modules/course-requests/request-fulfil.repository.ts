import { and, eq, isNull } from 'drizzle-orm'
import type { FulfilMode } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { courseRequest } from '../../db/schema'

/** A fulfilment under way: what the first attempt set out to do. */
export interface FulfilIntent {
  mode: FulfilMode
  dispatchId: string
  registrationCap: number
}

export interface FulfilState {
  status: string
  companyId: string | null
  courseId: string
  licenses: number
  dispatchId: string | null
  intent: FulfilIntent | null
}

/** The fulfilment columns of course_request (migration 0011). */
export function createRequestFulfilRepository(db: DbOrTx) {
  return {
    async state(id: string): Promise<FulfilState | null> {
      const [row] = await db
        .select({
          status: courseRequest.status,
          companyId: courseRequest.companyId,
          courseId: courseRequest.courseId,
          licenses: courseRequest.licenses,
          dispatchId: courseRequest.dispatchId,
          mode: courseRequest.fulfilMode,
          intentDispatchId: courseRequest.fulfilDispatchId,
          intentCap: courseRequest.fulfilRegistrationCap,
        })
        .from(courseRequest)
        .where(eq(courseRequest.id, id))
        .limit(1)
      if (!row) return null
      const { mode, intentDispatchId, intentCap, ...rest } = row
      const intent =
        mode && intentDispatchId && intentCap !== null
          ? { mode: mode as FulfilMode, dispatchId: intentDispatchId, registrationCap: intentCap }
          : null
      return { ...rest, intent }
    },

    /**
     * Records the intent unless another one is recorded already (two admins at once): returns
     * the intent that holds, so both finish the same fulfilment.
     */
    async claim(id: string, intent: FulfilIntent): Promise<FulfilIntent> {
      const claimed = await db
        .update(courseRequest)
        .set({
          fulfilMode: intent.mode,
          fulfilDispatchId: intent.dispatchId,
          fulfilRegistrationCap: intent.registrationCap,
        })
        .where(and(eq(courseRequest.id, id), isNull(courseRequest.fulfilMode)))
        .returning({ id: courseRequest.id })
      if (claimed.length > 0) return intent
      const current = await this.state(id)
      return current?.intent ?? intent
    },

    /** The provider refused for good: nothing happened upstream, so nothing is under way. */
    async release(id: string): Promise<void> {
      await db
        .update(courseRequest)
        .set({ fulfilMode: null, fulfilDispatchId: null, fulfilRegistrationCap: null })
        .where(eq(courseRequest.id, id))
    },

    /** Done: PROCESSED, linked to the dispatch, nothing under way. */
    async complete(id: string, dispatchId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(courseRequest)
        .set({
          status: 'PROCESSED',
          dispatchId,
          fulfilMode: null,
          fulfilDispatchId: null,
          fulfilRegistrationCap: null,
          updatedAt: new Date(),
        })
        .where(eq(courseRequest.id, id))
    },
  }
}
export type RequestFulfilRepository = ReturnType<typeof createRequestFulfilRepository>
