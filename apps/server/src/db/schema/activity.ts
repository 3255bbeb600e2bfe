import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/**
 * No foreign key on user_id: a deleted user's rows stay, readable through the actor's name
 * and email kept on each row (DECISIONS.md).
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: tz('created_at').notNull().defaultNow(),
    userId: uuid('user_id'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    details: jsonb('details'),
    ipAddress: text('ip_address'),
  },
  (t) => [
    index('activity_log_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('activity_log_action_created_at_idx').on(t.action, t.createdAt.desc(), t.id.desc()),
    index('activity_log_user_id_created_at_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
  ],
)
