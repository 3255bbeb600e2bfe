import { format } from 'date-fns'
import { Badge } from '@/components/ui/badge'
import { useCatcher } from '../api/webhooks-api'

/**
 * Demo mode only: what the portal's built-in receiver caught (the demo subscription points to
 * it), so a newcomer sees signed deliveries arrive as the simulated learners complete courses.
 * Outside demo mode the catcher does not exist and nothing is shown.
 */
export function DemoCatcher() {
  const { data } = useCatcher()
  if (!data) return null
  return (
    <section aria-labelledby="catcher-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <h2 id="catcher-title" className="text-base font-semibold text-slate-900">
        Demo receiver
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The demo's built-in receiver at <code className="break-all">{data.url}</code> keeps the last deliveries it
        caught and checks each signature.
      </p>
      {data.caught.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Nothing caught yet.</p>
      ) : (
        <ul aria-label="Caught deliveries" className="mt-2 space-y-2">
          {data.caught.map((c, i) => (
            <li key={`${c.id}-${i}`} className="rounded border border-slate-200 p-2 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-slate-700">{format(new Date(c.receivedAt), 'yyyy-MM-dd HH:mm:ss')}</span>
                <code className="text-xs">{c.type}</code>
                <Badge tone={c.verified ? 'green' : 'red'}>
                  {c.verified ? 'Signature verified' : 'Signature not verified'}
                </Badge>
              </div>
              <details className="mt-1 text-xs">
                <summary className="cursor-pointer text-slate-600">Body</summary>
                <pre className="max-h-40 overflow-auto break-all whitespace-pre-wrap">{c.body}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
