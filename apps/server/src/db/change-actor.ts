import { sql } from 'drizzle-orm'
import type { ChangeActor } from '../lib/actor'
import type { DbOrTx } from './client'

/**
 * Names who makes the licence changes of the current transaction: the dispatch history
 * triggers (migration 0036) write it on every row they record. It lasts until the transaction
 * ends (set_config's `is_local`), so call it inside the transaction of the change; a transaction
 * that names nobody is recorded as the sync finding the change upstream.
 */
export async function nameChangeActor(tx: DbOrTx, actor: ChangeActor): Promise<void> {
  await tx.execute(sql`select set_config('portal.change_actor', ${JSON.stringify(actor)}, true)`)
}
