import type { LogEntry } from '@portal/shared'
import { answerFields } from '../../db/json-rows'
import type { LogRow } from './logs.repository'

/**
 * The docs/product-rules.md §3 log entry, declared once: toLogEntry() (a user's recent activity) and the log
 * list's JSON rows (logs.repository.ts entriesJsonSql) are both built from it. The actor's name
 * and email are the ones kept on the row; a system row has no user at all. Every field is read by
 * whoever reads the log (log.read).
 */
export const logEntryFields = answerFields<LogRow, LogEntry>([
  { name: 'id', column: 'id', kind: 'number', roles: 'all' },
  { name: 'createdAt', column: 'createdAt', kind: 'timestamp', roles: 'all' },
  { name: 'action', column: 'action', kind: 'text', roles: 'all' },
  { name: 'details', column: 'details', kind: 'json', nullable: true, roles: 'all' },
  { name: 'ipAddress', column: 'ipAddress', kind: 'text', nullable: true, roles: 'all' },
  {
    name: 'user',
    kind: 'object',
    nullable: true,
    roles: 'all',
    fields: [
      { name: 'id', column: 'userId', kind: 'text', nullable: true },
      { name: 'name', column: 'actorName', kind: 'text', nullable: true },
      { name: 'email', column: 'actorEmail', kind: 'text', nullable: true },
    ],
  },
])
