/** Who did something, as the activity log keeps it (docs/product-rules.md §3); all null for a system row. */
export interface Actor {
  id: string | null
  name: string | null
  email: string | null
}

/** Who made a change and from where, as a service is handed them by its route. */
export interface ChangeContext {
  actor: Actor | null
  ip: string
}

/** The activity row of a change made in `ctx` (the activity repository's `record` writes it). */
export function auditEntry<A extends string>(ctx: ChangeContext, action: A, details: unknown) {
  return { action, actor: ctx.actor, ipAddress: ctx.ip, details }
}
