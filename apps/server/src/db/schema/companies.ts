import { sql } from 'drizzle-orm'
import { index, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { appUser } from './users'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** A client company = a SCORM Cloud destination; its id is the destination id. */
export const company = pgTable(
  'company',
  {
    id: text('id').primaryKey(),
    /** Provider-owned: the destination's name, overwritten by every sync. */
    name: text('name').notNull(),
    /**
     * Portal-owned: an admin's rename (issue #6). Screens show display_name ?? name, and the
     * sync never writes it, so a rename survives the next sync.
     */
    displayName: text('display_name'),
    accountManagerId: uuid('account_manager_id').references((): AnyPgColumn => appUser.id, {
      onDelete: 'set null',
    }),
    providerCreated: tz('provider_created'),
    providerUpdated: tz('provider_updated'),
    /** Set when the destination is gone upstream: the row leaves lists, its history stays. */
    removedAt: tz('removed_at'),
    syncedAt: tz('synced_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('company_name_idx').on(sql`lower(${t.name})`),
    index('company_account_manager_id_idx').on(t.accountManagerId),
  ],
)
