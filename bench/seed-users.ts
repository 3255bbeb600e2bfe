/**
 * The two accounts the bench signs in with: an admin, and a client of the company that holds
 * the 100,000-registration dispatch (so its dispatch list and report are the big ones).
 */
import { hashPassword } from '../apps/server/src/lib/passwords'
import { ADMIN_EMAIL, BENCH_PASSWORD, CLIENT_EMAIL } from './config'
import type { SqlRunner } from './sql-runner'

export interface BenchFixtures {
  bigDispatchId: string
  bigDispatchRegistrations: number
  clientCompanyId: string
  clientCompanyDispatches: number
}

export async function findFixtures(db: SqlRunner): Promise<BenchFixtures> {
  const { rows } = await db.query<{ id: string; destination_id: string; n: number }>(
    `select id, destination_id, active_registration_count as n
     from dispatch order by active_registration_count desc, id limit 1`,
  )
  const big = rows[0]
  if (!big) throw new Error('no dispatch in the database: did the sync run?')
  const { rows: counted } = await db.query<{ n: number }>(
    'select count(*)::int as n from dispatch where destination_id = $1 and removed_at is null',
    [big.destination_id],
  )
  return {
    bigDispatchId: big.id,
    bigDispatchRegistrations: Number(big.n),
    clientCompanyId: big.destination_id,
    clientCompanyDispatches: counted[0]?.n ?? 0,
  }
}

export async function seedUsers(db: SqlRunner, fixtures: BenchFixtures): Promise<void> {
  const hash = await hashPassword(BENCH_PASSWORD)
  await db.query(
    `insert into app_user (email, username, name, password_hash, role, company_id)
     values ($1, 'bench-admin', 'Bench Admin', $3, 'admin', null),
            ($2, 'bench-client', 'Bench Client', $3, 'client', $4)
     on conflict do nothing`,
    [ADMIN_EMAIL, CLIENT_EMAIL, hash, fixtures.clientCompanyId],
  )
}
