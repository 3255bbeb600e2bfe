import { sql } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { evaluateAlerts, type RaisedAlert } from './alerts-evaluate.sql'

export type { RaisedAlert }

/**
 * Who is mailed an alert: the company's account manager and the admins (staff), and the
 * company's client users who opted in; active users whose alert mails are on (staff by default,
 * clients only when they turned them on). One SQL over all the new alerts.
 */
async function recipients(tx: DbOrTx, alertIds: number[]) {
  const rows = rowsOf(
    await tx.execute(sql`
    select a.id::text as alert_id, u.id as user_id, u.email
    from alert a
    left join company co on co.id = a.company_id
    join app_user u on u.status = 'active' and (
      u.role = 'admin'
      or u.id = co.account_manager_id
      or (u.role = 'client' and u.company_id = a.company_id))
    left join user_preference p on p.user_id = u.id
    where a.id in (select jsonb_array_elements_text(${JSON.stringify(alertIds)}::jsonb)::bigint)
      and coalesce(p.alert_mails, u.role <> 'client')
    order by a.id, u.id`),
  )
  return rows.map((r) => ({ alertId: Number(r.alert_id), userId: String(r.user_id), email: String(r.email) }))
}

/** The alert evaluation's SQL (alerts-evaluate.sql.ts) and who is mailed what it raises. */
export function createAlertsRepository(db: Db) {
  return {
    /** Raises the alerts due now (of these dispatches, or all); takes the evaluation's lock in `tx`. */
    evaluate: (options: { now: Date; dispatchIds: readonly string[] | null }, tx: Tx) => evaluateAlerts(tx, options),
    recipients: (alertIds: number[], tx: DbOrTx = db) => recipients(tx, alertIds),
    /** Those of these dispatch ids the mirror still holds (a postback's dispatch may be gone since). */
    async existingDispatches(ids: readonly string[], tx: DbOrTx = db): Promise<Set<string>> {
      const rows = rowsOf(
        await tx.execute(
          sql`select id from dispatch where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
        ),
      )
      return new Set(rows.map((r) => String(r.id)))
    },
  }
}
export type AlertsRepository = ReturnType<typeof createAlertsRepository>
