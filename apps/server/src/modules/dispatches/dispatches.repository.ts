import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { DispatchListQuery } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { company, course, dispatch, dispatchVersion } from '../../db/schema'
import type { DispatchRow, SummaryRow } from './dispatches.mapper'

/** `%term%` for ILIKE, with the pattern characters of the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export interface DispatchFilter {
  /** From dispatchScope(): who may see what, removed rows excluded. */
  scope: SQL
  search?: string | undefined
  status: DispatchListQuery['status']
}

/** Provider-owned columns an admin edit can change (DECISIONS.md: provider first, then mirror). */
export type MirrorUpdate = Partial<
  Pick<
    typeof dispatch.$inferInsert,
    | 'enabled'
    | 'allowNewRegistrations'
    | 'instanced'
    | 'registrationCount'
    | 'registrationCap'
    | 'expirationDate'
    | 'tags'
    | 'notes'
    | 'providerUpdated'
  >
>

const rowColumns = {
  id: dispatch.id,
  courseId: dispatch.courseId,
  courseTitle: dispatch.courseTitle,
  destinationId: dispatch.destinationId,
  destinationName: dispatch.destinationName,
  enabled: dispatch.enabled,
  registrationCount: dispatch.registrationCount,
  registrationCap: dispatch.registrationCap,
  expirationDate: dispatch.expirationDate,
  tags: dispatch.tags,
  notes: dispatch.notes,
  providerCreated: dispatch.providerCreated,
  providerUpdated: dispatch.providerUpdated,
  appSource: course.appSource,
}

/**
 * Case-insensitive sort keys, each matching an index of db/schema/dispatches.ts; id always
 * closes the list so equal keys keep one order and pages neither repeat nor skip rows.
 */
const SORT_KEYS: Record<DispatchListQuery['sort'], SQL[]> = {
  client: [sql`lower(${dispatch.destinationName})`],
  course: [sql`lower(${dispatch.courseTitle})`],
  status: [sql`${dispatch.enabled}`, sql`lower(${dispatch.destinationName})`],
  registrations: [sql`${dispatch.registrationCount}`],
}

function whereOf(filter: DispatchFilter): SQL {
  const conditions = [filter.scope]
  if (filter.status !== 'all') conditions.push(eq(dispatch.enabled, filter.status === 'enabled'))
  const term = filter.search?.trim()
  if (term) {
    const pattern = containsPattern(term)
    conditions.push(
      or(ilike(dispatch.courseTitle, pattern), ilike(dispatch.destinationName, pattern), ilike(dispatch.id, pattern))!,
    )
  }
  return and(...conditions)!
}

const int = (expr: SQL) => sql<number>`(${expr})::bigint`.mapWith(Number)

/** The dispatch table's data version (migration 0007); null if its row is missing. */
const currentVersion = sql<
  number | null
>`(select ${dispatchVersion.version} from ${dispatchVersion} where ${dispatchVersion.id} = 1)`.mapWith(Number)

export function createDispatchesRepository(db: DbOrTx) {
  async function readVersion(): Promise<number | null> {
    const [row] = await db
      .select({ version: dispatchVersion.version })
      .from(dispatchVersion)
      .where(eq(dispatchVersion.id, 1))
    return row?.version ?? null
  }

  return {
    /**
     * One page, with the data version it was read at (same statement, so the same snapshot;
     * a page past the end has no row to carry it and reads it alone).
     */
    async page(
      filter: DispatchFilter,
      sort: DispatchListQuery['sort'],
      order: DispatchListQuery['order'],
      limit: number,
      offset: number,
    ): Promise<{ rows: DispatchRow[]; version: number | null }> {
      const direction = order === 'desc' ? desc : asc
      const found = await db
        .select({ ...rowColumns, dataVersion: currentVersion })
        .from(dispatch)
        .leftJoin(course, eq(course.id, dispatch.courseId))
        .where(whereOf(filter))
        .orderBy(...SORT_KEYS[sort].map((key) => direction(key)), direction(dispatch.id))
        .limit(limit)
        .offset(offset)
      if (found.length === 0) return { rows: [], version: await readVersion() }
      return { rows: found.map(({ dataVersion: _version, ...row }) => row), version: found[0]!.dataVersion }
    },

    /** The value summary() would report now: equal values mean equal dispatch data. */
    version: readVersion,

    /**
     * The four cards of SPEC §2 over the whole filtered set, in one pass over dispatch, with the
     * data version they were counted at (same statement, so the same snapshot).
     */
    async summary(filter: DispatchFilter): Promise<SummaryRow & { version: number | null }> {
      const capped = sql`${dispatch.registrationCap} > 0`
      const [row] = await db
        .select({
          totalDispatches: int(sql`count(*)`),
          activeDispatches: int(sql`count(*) filter (where ${dispatch.enabled})`),
          registrations: int(sql`coalesce(sum(${dispatch.registrationCount}), 0)`),
          cappedRegistrations: int(sql`coalesce(sum(${dispatch.registrationCount}) filter (where ${capped}), 0)`),
          cappedCapacity: int(sql`coalesce(sum(${dispatch.registrationCap}) filter (where ${capped}), 0)`),
          unlimitedActive: int(sql`count(*) filter (where ${dispatch.enabled} and ${dispatch.registrationCap} <= 0)`),
          // Trigger-maintained counter (migration 0002): no join over the registrations.
          activeRegistrations: int(sql`coalesce(sum(${dispatch.activeRegistrationCount}), 0)`),
          version: currentVersion,
        })
        .from(dispatch)
        .where(whereOf(filter))
      return row!
    },

    async findVisible(id: string, scope: SQL): Promise<DispatchRow | null> {
      const [row] = await db
        .select({ ...rowColumns, registrationVersion: dispatch.registrationVersion })
        .from(dispatch)
        .leftJoin(course, eq(course.id, dispatch.courseId))
        .where(and(eq(dispatch.id, id), scope))
        .limit(1)
      return row ?? null
    },

    /** Writes the provider's state of an edited dispatch (the update service's re-read). */
    async updateMirror(id: string, values: MirrorUpdate, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(dispatch)
        .set({ ...values, syncedAt: new Date() })
        .where(eq(dispatch.id, id))
    },

    /** SPEC §7 destinations: companies still present upstream, by name. */
    async destinations(): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: company.id, name: company.name })
        .from(company)
        .where(isNull(company.removedAt))
        .orderBy(asc(sql`lower(${company.name})`), asc(company.id))
    },
  }
}
export type DispatchesRepository = ReturnType<typeof createDispatchesRepository>
