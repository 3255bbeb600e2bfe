import type { Role } from '@portal/shared'

/** The demo accounts exist only in demo mode (no SCORM Cloud credentials). */
export const DEMO_PASSWORD = 'demo-portal-pass'

export const DEMO_ACCOUNTS: { email: string; role: Role; name: string }[] = [
  { email: 'admin@demo.local', role: 'admin', name: 'Ada Admin' },
  { email: 'internal@demo.local', role: 'internal', name: 'Ian Internal' },
  { email: 'sales@demo.local', role: 'sales', name: 'Sam Sales' },
  { email: 'client@demo.local', role: 'client', name: 'Chris Client' },
]
