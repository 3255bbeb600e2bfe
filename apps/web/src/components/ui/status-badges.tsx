import { Badge, type BadgeTone } from '@/components/ui/badge'

/** docs/product-rules.md §4: the completion statuses' labels, as badges and filters show them. */
export const COMPLETION_LABELS: Readonly<Record<string, string>> = {
  completed: 'Completed',
  incomplete: 'Incomplete',
  'not attempted': 'Not Started',
}
const COMPLETION_TONES: Record<string, BadgeTone> = { completed: 'green', incomplete: 'yellow' }

const capitalise = (value: string) => (value ? value.charAt(0).toUpperCase() + value.slice(1) : 'Unknown')

/** docs/product-rules.md §4 completion status: completed, incomplete, not attempted (labelled Not Started). */
export function CompletionBadge({ status }: { status: string }) {
  const value = status.toLowerCase()
  const label = Object.hasOwn(COMPLETION_LABELS, value) ? COMPLETION_LABELS[value] : capitalise(status)
  return <Badge tone={Object.hasOwn(COMPLETION_TONES, value) ? COMPLETION_TONES[value] : 'neutral'}>{label}</Badge>
}

/** docs/product-rules.md §4 success status: passed green, failed red, anything else neutral. */
export function SuccessBadge({ status }: { status: string }) {
  const value = status.toLowerCase()
  const tone: BadgeTone = value === 'passed' ? 'green' : value === 'failed' ? 'red' : 'neutral'
  return <Badge tone={tone}>{capitalise(value)}</Badge>
}
