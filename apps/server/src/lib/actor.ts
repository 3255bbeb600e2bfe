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

/**
 * Who made a licence change, as the dispatch history keeps it: a kind (a portal user, an API
 * key, the sync finding it upstream, or a system actor such as a scheduled renewal), its id
 * in that kind, and the label shown. New kinds need no schema change.
 */
export interface ChangeActor {
  kind: 'user' | 'apiKey' | 'sync' | 'system' | (string & {})
  id: string | null
  label: string
  email?: string | null
}

/** The history's actor for a change made in `ctx`: the one it names, else its activity actor as a user. */
export function changeActorOf(ctx: ChangeContext & { changeActor?: ChangeActor }): ChangeActor {
  if (ctx.changeActor) return ctx.changeActor
  const a = ctx.actor
  if (!a) return { kind: 'system', id: null, label: 'The portal' }
  return { kind: 'user', id: a.id, label: a.name ?? a.email ?? 'A portal user', email: a.email }
}
