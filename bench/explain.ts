/**
 * Plans of what an endpoint runs: the statements the server's own services issue for
 * a request, captured through a logging Drizzle instance (nothing copied from the repositories),
 * then each run under EXPLAIN (ANALYZE, BUFFERS) on the same database.
 */
import type { Db } from '../apps/server/src/db/client'
import type { SqlTarget, Statement } from './sql-baselines'

export interface StatementPlan {
  sql: string
  params: unknown[]
  plan: string
  /** The plan's own "Execution Time", ms. */
  executionMs: number | null
  /** Sequential scans in the plan, by table. */
  seqScans: string[]
}

export async function explainWork(target: SqlTarget, work: (db: Db) => Promise<unknown>): Promise<StatementPlan[]> {
  const statements: Statement[] = []
  await work(target.capturingDb((s) => statements.push(s)))
  const plans: StatementPlan[] = []
  for (const statement of statements) {
    const lines = await target.explain(statement)
    const plan = lines.join('\n')
    const time = /Execution Time: ([\d.]+) ms/.exec(plan)
    const seqScans = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!)
    plans.push({
      sql: statement.text,
      params: statement.params,
      plan,
      executionMs: time ? Number(time[1]) : null,
      seqScans,
    })
  }
  return plans
}
