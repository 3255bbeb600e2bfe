import { Badge } from '@/components/ui/badge'

export function DispatchStatusBadge({ enabled }: { enabled: boolean }) {
  return <Badge tone={enabled ? 'green' : 'neutral'}>{enabled ? 'Enabled' : 'Disabled'}</Badge>
}
