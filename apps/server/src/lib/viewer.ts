import type { Role } from '@portal/shared'

/** Who reads a list or a report: the role decides the scope, a client's company narrows it. */
export interface Viewer {
  role: Role
  companyId: string | null
}
