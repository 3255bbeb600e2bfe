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
