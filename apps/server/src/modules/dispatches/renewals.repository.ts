import { sql, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { ownSearchSql } from '../../db/dispatch-search'
import { termMatch } from '../../db/search'
import { queryRows } from '../../db/statement'

/** A dispatch as a renewal or bulk action is checked against. */
export interface TargetDispatch {
  id: string
  companyId: string
  companyName: string
  courseTitle: string
  registrationCount: number
  registrationCap: number
  removed: boolean
}

export interface Staff {
  id: string | null
  name: string | null
  email: string | null
}

export interface NewRenewal {
  dispatchId: string
  companyId: string
  runOn: string
  registrationCap: number | null
  expirationDate: string | null
  resetCount: boolean
  rolloverMonths: number | null
}

export interface RenewalRow {
  id: string
  dispatchId: string
  companyId: string
  courseTitle: string
  runOn: string
  registrationCap: number | null
  expirationDate: string | null
  resetCount: boolean
  rolloverMonths: number | null
  source: string
  status: string
  attempts: number
  lastError: string | null
  scheduledById: string | null
  scheduledByName: string | null
  scheduledByEmail: string | null
  createdAt: Date
  finishedAt: Date | null
}

export interface Selection {
  dispatchIds?: string[]
  companyId?: string
  filter?: { search?: string; status?: 'enabled' | 'disabled' }
}

const RENEWAL_COLUMNS = sql`r.id::text as "id", r.dispatch_id as "dispatchId", r.company_id as "companyId",
  coalesce(d.course_title, '') as "courseTitle", to_char(r.run_on, 'YYYY-MM-DD') as "runOn",
  r.registration_cap as "registrationCap", to_char(r.expiration_date, 'YYYY-MM-DD') as "expirationDate",
  r.reset_count as "resetCount", r.rollover_months as "rolloverMonths", r.source, r.status, r.attempts,
  r.last_error as "lastError", r.scheduled_by_id::text as "scheduledById", r.scheduled_by_name as "scheduledByName",
  r.scheduled_by_email as "scheduledByEmail", r.created_at as "createdAt", r.finished_at as "finishedAt"`

const TARGET_COLUMNS = sql`d.id, d.destination_id as "companyId", coalesce(c.display_name, c.name, d.destination_name) as "companyName",
  d.course_title as "courseTitle", d.registration_count as "registrationCount", d.registration_cap as "registrationCap",
  (d.removed_at is not null) as "removed"`

const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)))
const toRenewal = (r: RenewalRow): RenewalRow => ({
  ...r,
  attempts: Number(r.attempts),
  createdAt: asDate(r.createdAt)!,
  finishedAt: asDate(r.finishedAt),
})

/** Scheduled renewals and rollovers (migration 0038): the only SQL of renewals. */
export function createRenewalsRepository(db: Db) {
  return {
    /**
     * The dispatches a selection names: listed ids (removed ones too, so the caller can say
     * which are gone), or every live dispatch of the company / the list's filter. At most
     * `limit` rows: one more than allowed tells the caller the selection is too large.
     */
    async targets(selection: Selection, limit: number, tx: DbOrTx = db): Promise<TargetDispatch[]> {
      const conditions: SQL[] = []
      if (selection.dispatchIds) {
        conditions.push(
          sql`d.id in (select jsonb_array_elements_text(${JSON.stringify(selection.dispatchIds)}::jsonb))`,
        )
      } else {
        conditions.push(sql`d.removed_at is null`)
        if (selection.companyId) conditions.push(sql`d.destination_id = ${selection.companyId}`)
        const status = selection.filter?.status
        if (status) conditions.push(sql`d.enabled = ${status === 'enabled'}`)
        const search = selection.filter?.search?.trim()
        if (search) conditions.push(ownSearchSql(termMatch(search), selection.companyId))
      }
      return queryRows<TargetDispatch>(
        tx,
        sql`select ${TARGET_COLUMNS} from dispatch d left join company c on c.id = d.destination_id
          where ${sql.join(conditions, sql` and `)} order by d.id limit ${limit}`,
      )
    },

    async insert(rows: NewRenewal[], by: Staff, tx: DbOrTx = db): Promise<string[]> {
      if (rows.length === 0) return []
      const found = await queryRows<{ id: string }>(
        tx,
        sql`insert into dispatch_renewal (dispatch_id, company_id, run_on, registration_cap, expiration_date,
            reset_count, rollover_months, scheduled_by_id, scheduled_by_name, scheduled_by_email)
          select x."dispatchId", x."companyId", x."runOn"::date, x."registrationCap", x."expirationDate"::date,
            x."resetCount", x."rolloverMonths", ${by.id}::uuid, ${by.name}, ${by.email}
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x("dispatchId" text, "companyId" text,
            "runOn" text, "registrationCap" int, "expirationDate" text, "resetCount" boolean, "rolloverMonths" int)
          returning id::text as id`,
      )
      return found.map((r) => r.id)
    },

    /** Renewals of a company (or of all), upcoming first; finished ones of the last 30 days too. */
    async list(companyId: string | undefined, now: Date): Promise<RenewalRow[]> {
      const rows = await queryRows<RenewalRow>(
        db,
        sql`select ${RENEWAL_COLUMNS} from dispatch_renewal r left join dispatch d on d.id = r.dispatch_id
          where ${companyId === undefined ? sql`true` : sql`r.company_id = ${companyId}`}
            and (r.status in ('scheduled', 'running')
              or coalesce(r.finished_at, r.created_at) > ${now.toISOString()}::timestamptz - interval '30 days')
          order by (r.status in ('scheduled', 'running')) desc, r.run_on, r.created_at limit 500`,
      )
      return rows.map(toRenewal)
    },

    async find(id: string): Promise<RenewalRow | null> {
      const [row] = await queryRows<RenewalRow>(
        db,
        sql`select ${RENEWAL_COLUMNS} from dispatch_renewal r left join dispatch d on d.id = r.dispatch_id where r.id = ${id}::uuid`,
      )
      return row ? toRenewal(row) : null
    },

    /** scheduled -> cancelled; false when it was not scheduled (already running or finished). */
    async cancel(id: string, now: Date): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`update dispatch_renewal set status = 'cancelled', finished_at = ${now.toISOString()}::timestamptz
          where id = ${id}::uuid and status = 'scheduled' returning id`,
      )
      return rows.length > 0
    },

    /**
     * For every rollover whose dispatch's expiry day has come: one renewal on that day that
     * extends the expiry by its months and resets the counter. The unique index makes it once
     * per expiry, whichever worker gets there first.
     */
    async makeRolloverRenewals(today: string): Promise<number> {
      const rows = await queryRows(
        db,
        sql`insert into dispatch_renewal (dispatch_id, company_id, run_on, expiration_date, reset_count, source,
            scheduled_by_id, scheduled_by_name, scheduled_by_email)
          select d.id, d.destination_id, (d.expiration_date at time zone 'UTC')::date,
            ((d.expiration_date at time zone 'UTC') + make_interval(months => o.months))::date, true, 'rollover',
            o.scheduled_by_id, o.scheduled_by_name, o.scheduled_by_email
          from dispatch_rollover o join dispatch d on d.id = o.dispatch_id
          where d.removed_at is null and d.expiration_date is not null
            and (d.expiration_date at time zone 'UTC')::date <= ${today}::date
          on conflict (dispatch_id, run_on) where source = 'rollover' do nothing
          returning id`,
      )
      return rows.length
    },

    /**
     * Claims due renewals: scheduled ones whose day has come (and whose retry time has), and
     * running ones whose worker has not finished them within the lease (it died). One UPDATE
     * with SKIP LOCKED: two workers never claim the same renewal.
     */
    async claimDue(now: Date, today: string, leaseMs: number, limit: number): Promise<RenewalRow[]> {
      const at = now.toISOString()
      const stale = new Date(now.getTime() - leaseMs).toISOString()
      const claimed = await queryRows<{ id: string }>(
        db,
        sql`update dispatch_renewal set status = 'running', attempts = attempts + 1, started_at = ${at}::timestamptz
          where id in (select id from dispatch_renewal
            where (status = 'scheduled' and run_on <= ${today}::date
                   and coalesce(next_attempt_at, '-infinity'::timestamptz) <= ${at}::timestamptz)
               or (status = 'running' and started_at < ${stale}::timestamptz)
            order by run_on, created_at limit ${limit} for update skip locked)
            and status in ('scheduled', 'running')
          returning id::text as id`,
      )
      if (claimed.length === 0) return []
      const rows = await queryRows<RenewalRow>(
        db,
        sql`select ${RENEWAL_COLUMNS} from dispatch_renewal r left join dispatch d on d.id = r.dispatch_id
          where r.id in (select jsonb_array_elements_text(${JSON.stringify(claimed.map((c) => c.id))}::jsonb)::uuid)
          order by r.run_on, r.created_at`,
      )
      return rows.map(toRenewal)
    },

    /** running -> scheduled again, to be tried at `at`. */
    async retryLater(id: string, at: Date, error: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(
        sql`update dispatch_renewal set status = 'scheduled', next_attempt_at = ${at.toISOString()}::timestamptz,
          last_error = ${error} where id = ${id}::uuid and status = 'running'`,
      )
    },

    /** running -> done | failed; false when another worker finished it meanwhile. */
    async finish(id: string, status: 'done' | 'failed', error: string | null, now: Date, tx: DbOrTx = db) {
      const rows = await queryRows(
        tx,
        sql`update dispatch_renewal set status = ${status}, last_error = ${error},
          finished_at = ${now.toISOString()}::timestamptz
          where id = ${id}::uuid and status = 'running' returning id`,
      )
      return rows.length > 0
    },

    async setRollover(dispatchId: string, months: number, by: Staff, tx: DbOrTx = db): Promise<void> {
      await tx.execute(
        sql`insert into dispatch_rollover (dispatch_id, months, scheduled_by_id, scheduled_by_name, scheduled_by_email)
          values (${dispatchId}, ${months}, ${by.id}::uuid, ${by.name}, ${by.email})
          on conflict (dispatch_id) do update set months = excluded.months, scheduled_by_id = excluded.scheduled_by_id,
            scheduled_by_name = excluded.scheduled_by_name, scheduled_by_email = excluded.scheduled_by_email`,
      )
    },

    async rolloverOf(dispatchId: string): Promise<number | null> {
      const [row] = await queryRows<{ months: number }>(
        db,
        sql`select months from dispatch_rollover where dispatch_id = ${dispatchId}`,
      )
      return row ? Number(row.months) : null
    },

    /** Who hears of a renewal's outcome: the company's account manager. */
    async accountManager(companyId: string): Promise<{ id: string; email: string; name: string | null } | null> {
      const [row] = await queryRows<{ id: string; email: string; name: string | null }>(
        db,
        sql`select u.id::text as id, u.email, u.name from company c join app_user u on u.id = c.account_manager_id
          where c.id = ${companyId}`,
      )
      return row ?? null
    },
  }
}
export type RenewalsRepository = ReturnType<typeof createRenewalsRepository>
