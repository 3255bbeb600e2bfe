import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { queryRows } from '../../db/statement'
import type { Staff } from './renewals.repository'

export interface BulkRunRow {
  id: string
  action: string
  params: Record<string, unknown>
  status: string
  total: number
  done: number
  failed: number
  createdById: string | null
  createdByName: string | null
  createdByEmail: string | null
  createdAt: Date
  finishedAt: Date | null
}

export interface BulkItemRow {
  position: number
  dispatchId: string
  courseTitle: string
  companyName: string
  status: string
  error: string | null
}

const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)))

/** Bulk runs and their items (migration 0039): the only SQL of bulk actions. */
export function createBulkRunsRepository(db: Db) {
  return {
    /** The run and one pending item per dispatch, in one transaction with the job that starts it. */
    async create(action: string, params: object, dispatchIds: string[], by: Staff, tx: DbOrTx): Promise<string> {
      const [run] = await queryRows<{ id: string }>(
        tx,
        sql`insert into bulk_run (action, params, total, created_by_id, created_by_name, created_by_email)
          values (${action}, ${JSON.stringify(params)}::jsonb, ${dispatchIds.length}, ${by.id}::uuid, ${by.name}, ${by.email})
          returning id::text as id`,
      )
      await tx.execute(
        sql`insert into bulk_run_item (run_id, position, dispatch_id)
          select ${run!.id}::uuid, x.n::int, x.id from jsonb_array_elements_text(${JSON.stringify(dispatchIds)}::jsonb)
            with ordinality as x(id, n)`,
      )
      return run!.id
    },

    async find(id: string): Promise<BulkRunRow | null> {
      const [row] = await queryRows<BulkRunRow>(
        db,
        sql`select r.id::text as id, r.action, r.params, r.status, r.total,
            (select count(*) from bulk_run_item i where i.run_id = r.id and i.status = 'done')::int as done,
            (select count(*) from bulk_run_item i where i.run_id = r.id and i.status = 'failed')::int as failed,
            r.created_by_id::text as "createdById", r.created_by_name as "createdByName",
            r.created_by_email as "createdByEmail", r.created_at as "createdAt", r.finished_at as "finishedAt"
          from bulk_run r where r.id = ${id}::uuid`,
      )
      if (!row) return null
      return {
        ...row,
        params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params,
        createdAt: asDate(row.createdAt)!,
        finishedAt: asDate(row.finishedAt),
      }
    },

    async items(id: string): Promise<BulkItemRow[]> {
      return queryRows<BulkItemRow>(
        db,
        sql`select i.position, i.dispatch_id as "dispatchId", coalesce(d.course_title, '') as "courseTitle",
            coalesce(c.display_name, c.name, d.destination_name, '') as "companyName", i.status, i.error
          from bulk_run_item i left join dispatch d on d.id = i.dispatch_id
            left join company c on c.id = d.destination_id
          where i.run_id = ${id}::uuid order by i.position`,
      )
    },

    /**
     * Claims the next items of a run: pending ones, and running ones whose claim is older than
     * the lease (their worker died). SKIP LOCKED: two workers never claim the same item.
     */
    async claim(
      id: string,
      now: Date,
      leaseMs: number,
      limit: number,
    ): Promise<{ position: number; dispatchId: string }[]> {
      const stale = new Date(now.getTime() - leaseMs).toISOString()
      return queryRows(
        db,
        sql`update bulk_run_item set status = 'running', claimed_at = ${now.toISOString()}::timestamptz
          where run_id = ${id}::uuid and position in (select position from bulk_run_item
            where run_id = ${id}::uuid
              and (status = 'pending' or (status = 'running' and claimed_at < ${stale}::timestamptz))
            order by position limit ${limit} for update skip locked)
          returning position, dispatch_id as "dispatchId"`,
      )
    },

    async settle(id: string, position: number, status: 'done' | 'failed', error: string | null, now: Date) {
      await db.execute(
        sql`update bulk_run_item set status = ${status}, error = ${error}, finished_at = ${now.toISOString()}::timestamptz
          where run_id = ${id}::uuid and position = ${position} and status = 'running'`,
      )
    },

    /** running -> finished once no item is left open. */
    async finishIfDone(id: string, now: Date): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`update bulk_run set status = 'finished', finished_at = ${now.toISOString()}::timestamptz
          where id = ${id}::uuid and status = 'running' and not exists (
            select 1 from bulk_run_item i where i.run_id = ${id}::uuid and i.status in ('pending', 'running'))
          returning id`,
      )
      return rows.length > 0
    },

    /** Runs with items a worker could claim now (left by a worker that stopped). */
    async openRuns(now: Date, leaseMs: number): Promise<string[]> {
      const stale = new Date(now.getTime() - leaseMs).toISOString()
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select r.id::text as id from bulk_run r where r.status = 'running' and exists (
            select 1 from bulk_run_item i where i.run_id = r.id
              and (i.status = 'pending' or (i.status = 'running' and i.claimed_at < ${stale}::timestamptz)))
          order by r.created_at limit 50`,
      )
      return rows.map((r) => r.id)
    },
  }
}
export type BulkRunsRepository = ReturnType<typeof createBulkRunsRepository>
