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
  /** Nine more companies, small to large, for the varied mix's client users. */
  otherClientCompanyIds: string[]
}

/** The accounts of the varied mix, all with BENCH_PASSWORD. */
export const BENCH_STAFF = [
  { email: ADMIN_EMAIL, role: 'admin' },
  { email: 'bench-admin2@bench.local', role: 'admin' },
  { email: 'bench-internal@bench.local', role: 'internal' },
  { email: 'bench-sales@bench.local', role: 'sales' },
] as const
export const benchClientEmail = (i: number) => (i === 0 ? CLIENT_EMAIL : `bench-client-${i}@bench.local`)

export async function findFixtures(db: SqlRunner): Promise<BenchFixtures> {
  const { rows } = await db.query<{ id: string; destination_id: string; n: number }>(
    `select d.id, d.destination_id, s.registrations as n
     from dispatch_stat s join dispatch d on d.id = s.dispatch_id
     order by s.registrations desc, d.id limit 1`,
  )
  const big = rows[0]
  if (!big) throw new Error('no dispatch in the database: did the sync run?')
  const { rows: counted } = await db.query<{ n: number }>(
    'select count(*)::int as n from dispatch where destination_id = $1 and removed_at is null',
    [big.destination_id],
  )
  const { rows: others } = await db.query<{ id: string }>(
    `select destination_id as id from (
       select destination_id, count(*) as n, row_number() over (order by count(*), destination_id) as k
       from dispatch where removed_at is null and destination_id <> $1 group by destination_id
     ) ranked where k % 50 = 1 order by k limit 9`,
    [big.destination_id],
  )
  return {
    bigDispatchId: big.id,
    bigDispatchRegistrations: Number(big.n),
    clientCompanyId: big.destination_id,
    clientCompanyDispatches: counted[0]?.n ?? 0,
    otherClientCompanyIds: others.map((o) => o.id),
  }
}

export async function seedUsers(db: SqlRunner, fixtures: BenchFixtures): Promise<void> {
  const hash = await hashPassword(BENCH_PASSWORD)
  const accounts: { email: string; role: string; companyId: string | null }[] = [
    ...BENCH_STAFF.map((s) => ({ ...s, companyId: null })),
    ...[fixtures.clientCompanyId, ...fixtures.otherClientCompanyIds].map((companyId, i) => ({
      email: benchClientEmail(i),
      role: 'client',
      companyId,
    })),
  ]
  for (const a of accounts) {
    await db.query(
      `insert into app_user (email, username, name, password_hash, role, company_id)
       values ($1, split_part($1, '@', 1), initcap(replace(split_part($1, '@', 1), '-', ' ')), $2, $3, $4)
       on conflict do nothing`,
      [a.email, hash, a.role, a.companyId],
    )
  }
}
