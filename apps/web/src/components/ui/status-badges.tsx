import { Badge, type BadgeTone } from '@/components/ui/badge'

const COMPLETION: Record<string, { label: string; tone: BadgeTone }> = {
  completed: { label: 'Completed', tone: 'green' },
  incomplete: { label: 'Incomplete', tone: 'yellow' },
  'not attempted': { label: 'Not Started', tone: 'neutral' },
}

const capitalise = (value: string) => (value ? value.charAt(0).toUpperCase() + value.slice(1) : 'Unknown')

/** docs/product-rules.md §4 completion status: completed, incomplete, not attempted (labelled Not Started). */
export function CompletionBadge({ status }: { status: string }) {
  const known = COMPLETION[status.toLowerCase()]
  return <Badge tone={known?.tone ?? 'neutral'}>{known?.label ?? capitalise(status)}</Badge>
}

/** docs/product-rules.md §4 success status: passed green, failed red, anything else neutral. */
export function SuccessBadge({ status }: { status: string }) {
  const value = status.toLowerCase()
  const tone: BadgeTone = value === 'passed' ? 'green' : value === 'failed' ? 'red' : 'neutral'
  return <Badge tone={tone}>{capitalise(value)}</Badge>
}
