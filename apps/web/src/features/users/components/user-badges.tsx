import type { Role, UserStatus } from '@portal/shared'
import { Badge, type BadgeTone } from '@/components/ui/badge'

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', internal: 'Internal', client: 'Client', sales: 'Sales' }
const ROLE_TONES: Record<Role, BadgeTone> = { admin: 'red', internal: 'blue', client: 'green', sales: 'yellow' }

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={ROLE_TONES[role]}>{ROLE_LABELS[role]}</Badge>
}

/** docs/product-rules.md §2: Active or Suspended. */
export function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge tone={status === 'active' ? 'green' : 'red'}>{status === 'active' ? 'Active' : 'Suspended'}</Badge>
}

export const ROLE_OPTIONS = (['admin', 'internal', 'client', 'sales'] as const).map((role) => ({
  value: role,
  label: ROLE_LABELS[role],
}))
