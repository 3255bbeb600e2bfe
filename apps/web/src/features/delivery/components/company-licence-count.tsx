import { useCompanyLicenceCount } from '../api/delivery'

const n = (value: number) => value.toLocaleString('en-US')

/** The learners screen's licence line: registrations against learners, and the over-count. */
export function CompanyLicenceCount({ companyId }: { companyId: string }) {
  const { data } = useCompanyLicenceCount(companyId)
  if (!companyId || !data) return null
  return (
    <p role="note" aria-label="Licence count" className="mb-4 text-sm text-slate-700">
      <span className="font-semibold tabular-nums">{n(data.registrations)}</span> registrations for{' '}
      <span className="font-semibold tabular-nums">{n(data.learners)}</span> learners across the company&apos;s
      dispatches
      {data.extraRegistrations > 0 ? (
        <>
          {' '}
          — <span className="font-semibold text-amber-800">{n(data.extraRegistrations)} extra</span> from{' '}
          {n(data.repeatLearners)} learners registered more than once on a dispatch.
        </>
      ) : (
        '.'
      )}
    </p>
  )
}
