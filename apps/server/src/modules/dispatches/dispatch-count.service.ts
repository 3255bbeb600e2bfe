import { DISPATCH_ACTION_MESSAGES as M, type Dispatch } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { toDate } from '../sync/sync.mapper'
import type { EditContext, ProviderDeps } from './dispatch-update.service'
import { toDispatch } from './dispatches.mapper'
import type { DispatchesRepository } from './dispatches.repository'
import { auditEntry, changeActorOf } from '../../lib/actor'
import { nameChangeActor } from '../../db/change-actor'

/**
 * "Reset registration count" (renewing licenses): DELETE …/registrationCount at
 * SCORM Cloud, then the mirror takes the provider's counter and reset date. The registrations
 * themselves stay (docs/scorm-cloud-api.md §6.1); the usage shown counts from the reset.
 */
export function createDispatchCountService(deps: ProviderDeps & { repository: DispatchesRepository }) {
  const { repository, activity } = deps

  return {
    async reset(id: string, ctx: EditContext): Promise<Dispatch> {
      const row = await deps.dispatches.requireVisible(ctx.viewer, id)
      const client = deps.client()
      if (!client) throw new AppError('NOT_READY', M.notConfigured)
      const resetAt = new Date()
      await client.resetRegistrationCount(id)
      const fresh = await client.getDispatch(id)
      // v4 providers do not send registrationResetDate (docs/scorm-cloud-api.md §6.2, v5): then ours is the reset time.
      const resetDate = toDate(fresh.registrationResetDate) ?? resetAt
      const count = Number.isInteger(fresh.registrationCount) ? Math.max(0, fresh.registrationCount!) : 0
      await deps.db.transaction(async (tx) => {
        // The history triggers record the reset (and any other licence change read back) under ctx's actor.
        await nameChangeActor(tx, changeActorOf(ctx))
        await repository.updateMirror(id, { registrationCount: count, registrationResetDate: resetDate }, tx)
        await activity.record(
          auditEntry(ctx, 'DISPATCH_COUNT_RESET', {
            dispatchId: id,
            companyId: row.destinationId,
            companyName: row.destinationName,
            courseTitle: row.courseTitle,
            registrationCountBefore: row.registrationCount,
            registrationCap: row.registrationCap,
          }),
          tx,
        )
      })
      return toDispatch(await deps.dispatches.requireVisible(ctx.viewer, id), ctx.viewer.role)
    },
  }
}
export type DispatchCountService = ReturnType<typeof createDispatchCountService>
