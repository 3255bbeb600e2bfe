import type { SyncKind } from '@portal/shared'
import type { Tx } from '../../db/client'
import type { ListPage, ListWindow, ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { mapCourses, mapDestinations, mapDispatches, mapRegistrations } from './sync.mapper'
import type { SyncRepository, UpsertCounts } from './sync.repository'

export interface PageResult extends UpsertCounts {
  errors: number
  /** Provider ids on the page, for the removal check of a full run. */
  ids: string[]
  /** Registrations whose dispatch is not in the mirror (counted in `skipped` too). */
  orphans: number
  /** Dispatch rows whose course title or company name followed a rename on this page. */
  renamed?: number
}

/** How one kind is listed from SCORM Cloud and how one page of it is written. */
export interface KindHandler {
  /** The first page of the window, or the page a `more` token points at. */
  page(client: ScormCloudClient, window: ListWindow, more: string | null): Promise<ListPage>
  /** `staged`: registrations only, the listing stages its rows (SyncRepository.stagesRegistrations). */
  write(tx: Tx, items: unknown[], client: ScormCloudClient, options?: { staged?: boolean }): Promise<PageResult>
  /**
   * Courses, destinations and dispatches: the item's own GET, in its list shape, or null when
   * the provider answers 404. A full run asks it about items its listing did not return.
   */
  fetchOne?(client: ScormCloudClient, id: string): Promise<unknown>
  /** Courses, destinations and dispatches: how many the provider lists in the window (sync-reconcile.ts). */
  total?(client: ScormCloudClient, window: ListWindow): Promise<number>
}

/** null on 404 (gone upstream); any other failure is thrown. */
async function orNotFound<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call
  } catch (error) {
    if (error instanceof ScormCloudError && error.providerStatus === 404) return null
    throw error
  }
}

const idsOf = (items: unknown[], get: (item: { id?: unknown }) => unknown) =>
  items.flatMap((item) => {
    const id = item && typeof item === 'object' ? get(item as { id?: unknown }) : null
    return typeof id === 'string' && id ? [id] : []
  })

/** A destination's or dispatch's own GET, in its list shape (the id beside the data); null on 404. */
async function withId(id: string, call: Promise<unknown>) {
  const data = await orNotFound(call)
  return data && { id, data }
}

/** The four kinds' handlers, writing through the sync's repository. */
export function createKindHandlers(repo: SyncRepository): Record<SyncKind, KindHandler> {
  /** A page of courses or destinations written: the dispatch rows copying their names follow. */
  async function withRenames(
    tx: Tx,
    items: unknown[],
    mapped: { rows: { id: string }[]; errors: number },
    counts: UpsertCounts,
    of: 'course' | 'company',
  ): Promise<PageResult> {
    const ids = mapped.rows.map((r) => r.id)
    const renamed = await repo.refreshCopiedNames(of, ids, tx)
    return { ...counts, errors: mapped.errors, ids: idsOf(items, (i) => i.id), orphans: 0, renamed }
  }

  const courses: KindHandler = {
    page: (client, window, more) => client.coursePage(window, more),
    fetchOne: (client, id) => orNotFound(client.getCourse(id)),
    total: (client, window) => client.courseTotal(window),
    async write(tx, items, client) {
      const mapped = mapCourses(items as Parameters<typeof mapCourses>[0], client.appId)
      return withRenames(tx, items, mapped, await repo.upsertCourses(mapped.rows, tx), 'course')
    },
  }

  const destinations: KindHandler = {
    page: (client, window, more) => client.destinationPage(window, more),
    fetchOne: (client, id) => withId(id, client.getDestination(id)),
    total: (client, window) => client.destinationTotal(window),
    async write(tx, items) {
      const mapped = mapDestinations(items as Parameters<typeof mapDestinations>[0])
      return withRenames(tx, items, mapped, await repo.upsertCompanies(mapped.rows, tx), 'company')
    },
  }

  const dispatches: KindHandler = {
    page: (client, window, more) => client.dispatchPage(window, more),
    fetchOne: (client, id) => withId(id, client.getDispatch(id)),
    total: (client, window) => client.dispatchTotal(window),
    async write(tx, items) {
      const mapped = mapDispatches(items as Parameters<typeof mapDispatches>[0])
      // Reference mapping fallbacks: course title → course mirror → id; destination name →
      // company mirror → id. The mirror stands in for a per-item provider call.
      const titles = await repo.courseTitles(
        mapped.rows.filter((r) => !r.courseTitle).map((r) => r.courseId),
        tx,
      )
      const names = await repo.companyNames(
        mapped.rows.filter((r) => !r.destinationName).map((r) => r.destinationId),
        tx,
      )
      const rows = mapped.rows.map((r) => ({
        ...r,
        courseTitle: r.courseTitle ?? titles.get(r.courseId) ?? r.courseId,
        destinationName: r.destinationName ?? names.get(r.destinationId) ?? r.destinationId,
      }))
      // Foreign keys must hold even when the course or destination is not mirrored yet.
      await repo.ensureCourseStubs(
        rows.map((r) => ({ id: r.courseId, title: r.courseTitle })),
        tx,
      )
      await repo.ensureCompanyStubs(
        rows.map((r) => ({ id: r.destinationId, name: r.destinationName })),
        tx,
      )
      const counts = await repo.upsertDispatches(rows, tx)
      return { ...counts, errors: mapped.errors, ids: idsOf(items, (i) => i.id), orphans: 0 }
    },
  }

  const registrations: KindHandler = {
    page: (client, window, more) => client.registrationPage(window, more),
    // Not removal-checked: the check needs every registration id of the account in memory at
    // once (a million and more), and a registration is a learner's history, which the
    // completion report keeps even when its dispatch goes away upstream.
    async write(tx, items, _client, options) {
      const mapped = mapRegistrations(items as Parameters<typeof mapRegistrations>[0])
      const known = await repo.dispatchCourses(
        mapped.rows.map((r) => r.dispatchId),
        tx,
      )
      const rows = mapped.rows.flatMap((r) => {
        const courseId = known.get(r.dispatchId)
        return courseId === undefined ? [] : [{ ...r, courseId: r.courseId ?? courseId }]
      })
      const orphans = mapped.rows.length - rows.length
      const counts = options?.staged
        ? await repo.stageRegistrations(rows, tx)
        : await repo.upsertRegistrations(rows, tx)
      return {
        ...counts,
        // Without a dispatchId (not the portal's) or with an unknown dispatch: deliberately skipped.
        skipped: counts.skipped + mapped.ignored + orphans,
        errors: mapped.errors,
        ids: [],
        orphans,
      }
    },
  }

  // Run order of a full sync: a dispatch needs its course and destination, a registration its dispatch.
  return { courses, destinations, dispatches, registrations }
}
export type KindHandlers = ReturnType<typeof createKindHandlers>
