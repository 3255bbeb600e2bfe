import { Link } from '@/components/ui/link'
import { HeaderCells } from '@/components/ui/header-cells'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useLicenceCount } from '../api/delivery'
import { CardSection } from '@/components/ui/card-section'

const n = (value: number) => value.toLocaleString('en-US')

/** Registrations against distinct learners: the licences a relaunch over-count costs, and whose. */
export function LicenceCountCard({ dispatchId }: { dispatchId: string }) {
  const { data, error, isPending } = useLicenceCount(dispatchId)
  return (
    <CardSection id="licence-count" title="Licence count">
      {isPending ? (
        <Spinner label="Counting..." className="py-6" />
      ) : error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {errorMessage(error, String(error))}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-800">
            <span className="font-semibold tabular-nums">{n(data.registrations)}</span> registrations for{' '}
            <span className="font-semibold tabular-nums">{n(data.learners)}</span> learners
            {data.extraRegistrations > 0 ? (
              <>
                {' '}
                — <span className="font-semibold text-amber-800">{n(data.extraRegistrations)} extra</span> from{' '}
                {n(data.repeatLearners)} learners with more than one registration (relaunches while instancing is on).{' '}
                {/* The completion report below, filtered to those learners (its URL parameter). */}
                <Link to={{ search: '?repeatLearners=true', hash: '#completion-report' }}>
                  Show their registrations in the completion report
                </Link>
              </>
            ) : (
              ': one registration per learner.'
            )}
          </p>
          {data.learnersShown.length > 0 && (
            <table className="mt-3 min-w-full text-sm">
              <caption className="sr-only">Learners with more than one registration</caption>
              <thead>
                <tr className="text-left text-xs text-slate-600 uppercase">
                  <HeaderCells labels={['Learner', 'Email']} className="py-1 pr-4" />
                  <th scope="col" className="py-1">
                    Registrations
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.learnersShown.map((l) => (
                  <tr key={l.learnerId} className="border-t border-slate-100">
                    <td className="py-1 pr-4">{l.name}</td>
                    <td className="py-1 pr-4">{l.email || '—'}</td>
                    <td className="py-1 tabular-nums">{l.registrations}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </CardSection>
  )
}
