import type { ActivityAction, CompanySyncResponse, CourseSyncResponse } from '@portal/shared'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import { failureOf, type KindResult, type SyncService } from './sync.service'
import { auditEntry } from '../../lib/actor'

export interface AdminContext {
  actor: Actor | null
  ip: string
}

/**
 * The explicit sync buttons (docs/product-rules.md §2, §7): a full run of one kind, answered with the the product rules'
 * shape, and an activity row for success and failure alike (docs/product-decisions.md D14: syncs are written by
 * the server when they happen).
 */
export function createSyncAdminService(activity: ActivityRepository, sync: SyncService) {
  async function audited<T>(
    actions: { ok: ActivityAction; failed: ActivityAction },
    ctx: AdminContext,
    runIt: () => Promise<KindResult>,
    answer: (result: KindResult) => Promise<{ body: T; details: Record<string, unknown> }>,
  ): Promise<T> {
    const fail = async (error: unknown): Promise<never> => {
      await activity.record(
        auditEntry(ctx, actions.failed, { error: error instanceof Error ? error.message : String(error) }),
      )
      throw error
    }
    let result: KindResult
    try {
      result = await runIt()
    } catch (error) {
      return fail(error) // e.g. another process is syncing
    }
    if (result.status === 'failed') return fail(failureOf(result))
    const { body, details } = await answer(result)
    await activity.record({ action: actions.ok, actor: ctx.actor, ipAddress: ctx.ip, details })
    return body
  }

  const counts = ({ created, updated, skipped, errors }: KindResult) => ({ created, updated, skipped, errors })

  return {
    syncCourses: (ctx: AdminContext) =>
      audited<CourseSyncResponse>(
        { ok: 'COURSES_SYNCED', failed: 'COURSES_SYNC_FAILED' },
        ctx,
        () => sync.syncCourses('manual'),
        async (result) => {
          const courseCount = await sync.courseCount()
          return {
            body: { success: true, message: 'Courses synced successfully', courseCount },
            details: { ...counts(result), courseCount },
          }
        },
      ),

    syncCompanies: (ctx: AdminContext) =>
      audited<CompanySyncResponse>(
        { ok: 'COMPANIES_SYNCED', failed: 'COMPANIES_SYNC_FAILED' },
        ctx,
        () => sync.syncCompanies('manual'),
        async (result) => ({ body: counts(result), details: counts(result) }),
      ),

    status: () => sync.status(),
  }
}
export type SyncAdminService = ReturnType<typeof createSyncAdminService>
