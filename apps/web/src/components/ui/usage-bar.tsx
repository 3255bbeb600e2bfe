import { isOverused, usageColour, type UsageColour } from '@portal/shared'
import { Badge } from '@/components/ui/badge'
import { ProgressBar } from '@/components/ui/progress-bar'

/** docs/product-rules.md §9 colours; the thresholds themselves live in the shared license-usage rule. */
export const USAGE_BAR_CLASS: Record<UsageColour, string> = {
  green: 'bg-green-600',
  yellow: 'bg-yellow-500',
  red: 'bg-red-600',
}

export function UsageBar({ percent, label }: { percent: number; label: string }) {
  return <ProgressBar value={percent} label={label} barClassName={USAGE_BAR_CLASS[usageColour(percent)]} />
}

/** docs/product-rules.md §2: an Overused badge above 100 percent. */
export function OverusedBadge({ percent }: { percent: number | null }) {
  return isOverused(percent) ? <Badge tone="red">Overused</Badge> : null
}
