import { Badge } from '@/components/ui/badge'
import { useDispatchAlertFlags } from '../api/alerts-api'

/**
 * "Near cap" and "Expires soon" on a dashboard row (table and cards): the dispatch
 * has a live usage or expiry crossing. Every row of a page asks with the page's ids, so the
 * page makes one request.
 */
export function DispatchAlertBadges({ id, pageIds }: { id: string; pageIds: string[] }) {
  const { data } = useDispatchAlertFlags(pageIds)
  const nearCap = data?.nearCap.includes(id) ?? false
  const expiresSoon = data?.expiresSoon.includes(id) ?? false
  if (!nearCap && !expiresSoon) return null
  return (
    <span className="ml-2 inline-flex flex-wrap gap-1 align-middle">
      {nearCap && <Badge tone="red">Near cap</Badge>}
      {expiresSoon && <Badge tone="yellow">Expires soon</Badge>}
    </span>
  )
}
