import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { rowsOf } from '../db/statement'

/** A node of an `EXPLAIN (FORMAT JSON)` plan, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  'Sort Key'?: string[]
  'Index Cond'?: string
  Filter?: string
  Plans?: PlanNode[]
}

/**
 * Every node of a plan, top first, from the `QUERY PLAN` cell of an `EXPLAIN (FORMAT JSON)` row:
 * node-postgres parses the JSON, PGlite may give it as text.
 */
export function planNodes(cell: [{ Plan: PlanNode }] | string): PlanNode[] {
  const nodes: PlanNode[] = []
  const walk = (node: PlanNode) => {
    nodes.push(node)
    node.Plans?.forEach(walk)
  }
  walk((typeof cell === 'string' ? (JSON.parse(cell) as [{ Plan: PlanNode }]) : cell)[0].Plan)
  return nodes
}

/**
 * The plan of a statement a test logged (test-database.ts loggingDb), its values written in as
 * literals, since EXPLAIN takes no parameters: numbers, texts and instants.
 */
export async function planOfLogged(db: Db, statement: { text: string; params: unknown[] }): Promise<PlanNode[]> {
  const value = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v))
  const literal = statement.text.replace(/\$(\d+)/g, (_, n: string) => `'${value(statement.params[Number(n) - 1])}'`)
  const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
    await db.execute(sql.raw(`explain (format json) ${literal}`)),
  )
  return planNodes(row!['QUERY PLAN'])
}
