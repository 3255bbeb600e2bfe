import type { Dispatch } from '@portal/shared'
import { answerFields, type AnswerView } from '../../db/json-rows'
import type { DispatchRow } from './dispatches.mapper'

/**
 * The docs/product-rules.md §3 dispatch, declared once: each key, the DispatchRow column it is written from, how,
 * and which roles read it (docs/product-rules.md §6). toDispatch() (single reads) and the list's JSON rows
 * (dispatches-page.sql.ts rowsJsonSql) are both built from it. The order is DispatchSchema's, the
 * order every dispatch answer writes its keys in.
 */
export const dispatchFields = answerFields<DispatchRow, Dispatch>([
  { name: 'id', column: 'id', kind: 'text', roles: 'all' },
  { name: 'courseId', column: 'courseId', kind: 'text', roles: 'all' },
  { name: 'courseTitle', column: 'courseTitle', kind: 'text', roles: 'all' },
  { name: 'destinationId', column: 'destinationId', kind: 'text', roles: 'all' },
  { name: 'destinationName', column: 'destinationName', kind: 'text', roles: 'all' },
  { name: 'enabled', column: 'enabled', kind: 'boolean', roles: 'all' },
  { name: 'registrationCount', column: 'registrationCount', kind: 'number', roles: 'all' },
  { name: 'registrationCap', column: 'registrationCap', kind: 'number', roles: 'all' },
  { name: 'created', column: 'providerCreated', kind: 'timestamp', nullable: true, roles: 'all' },
  { name: 'updated', column: 'providerUpdated', kind: 'timestamp', nullable: true, roles: 'all' },
  { name: 'expirationDate', column: 'expirationDate', kind: 'timestamp', nullable: true, roles: 'all' },
  // The hosting app is the admin's.
  { name: 'appSource', column: 'appSource', kind: 'text', nullable: true, roles: 'course.readAppSource' },
  // Tags and notes are left out, not emptied, for the other roles, so sales and clients cannot
  // tell "no tags" apart.
  { name: 'tags', column: 'tags', kind: 'json', roles: 'dispatch.readNotes' },
  { name: 'notes', column: 'notes', kind: 'text', roles: 'dispatch.readNotes' },
  { name: 'registrationResetDate', column: 'registrationResetDate', kind: 'timestamp', nullable: true, roles: 'all' },
])

/** What of a dispatch one role reads (dispatchFields.view(role)). */
export type DispatchView = AnswerView<DispatchRow>
