import { formatDateTime, formatDuration, formatScore, type Learner, type LearnerSort } from '@portal/shared'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { SortHeader, type SortProps as LearnerSortProps } from '@/components/ui/sort-header'

type SortProps = LearnerSortProps<LearnerSort>

export const learnerName = (l: Learner) => `${l.firstName} ${l.lastName}`.trim() || l.email || l.learnerId
/** The key the registrations route takes: the e-mail, else `id:<learner id>`. */
export const learnerKey = (l: Learner) => l.email || `id:${l.learnerId}`
const lastAccess = (l: Learner) => (l.lastAccessDate ? formatDateTime(l.lastAccessDate) : 'Never')

export const LEARNER_COLUMNS: { sort: LearnerSort; label: string; numeric?: boolean }[] = [
  { sort: 'name', label: 'Name' },
  { sort: 'email', label: 'Email' },
  { sort: 'courses', label: 'Courses Assigned', numeric: true },
  { sort: 'completed', label: 'Completed', numeric: true },
  { sort: 'inProgress', label: 'In Progress', numeric: true },
  { sort: 'notStarted', label: 'Not Started', numeric: true },
  { sort: 'averageScore', label: 'Average Score', numeric: true },
  { sort: 'totalTime', label: 'Total Time', numeric: true },
  { sort: 'lastAccess', label: 'Last Access' },
]

/**
 * The table's first column, the learner: name with the e-mail under it, so the table fits a
 * 1280 px screen without a sideways scroll (a column each took 1,153 px in a 958 px box and hid
 * Total Time and Last Access). Both stay sortable: a button each in the header.
 */
function LearnerHeader({ sort, order, onSort }: SortProps) {
  const active = sort === 'name' || sort === 'email'
  const button = (column: 'name' | 'email', label: string) => {
    const Arrow = sort !== column ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown
    return (
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded text-xs font-semibold tracking-wide text-slate-700 uppercase hover:text-slate-900"
      >
        {label}
        <Arrow aria-hidden="true" className={sort === column ? 'size-4 text-blue-700' : 'size-4 text-slate-400'} />
      </button>
    )
  }
  return (
    <th
      scope="col"
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-3 py-3 text-left"
    >
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {button('name', 'Name')}
        {button('email', 'Email')}
      </span>
    </th>
  )
}

/** An e-mail that may break after its @ (not mid-word, as break-all did), so it takes two lines at most. */
function Email({ value }: { value: string }) {
  const at = value.indexOf('@')
  if (!value) return <>N/A</>
  if (at < 0) return <>{value}</>
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  )
}

function OpenButton({ learner, onOpen }: { learner: Learner; onOpen: (key: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onOpen(learnerKey(learner))}
      className="rounded text-left font-medium text-blue-700 underline-offset-2 hover:underline"
    >
      {learnerName(learner)}
    </button>
  )
}

/** The learners of the company, every column sortable (wide screens). */
export function LearnerTable({
  learners,
  onOpen,
  ...sortProps
}: SortProps & { learners: Learner[]; onOpen: (key: string) => void }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Learners</caption>
        <thead className="bg-slate-50">
          <tr>
            <LearnerHeader {...sortProps} />
            {LEARNER_COLUMNS.filter((c) => c.sort !== 'name' && c.sort !== 'email').map((c) => (
              <SortHeader key={c.sort} column={c.sort} label={c.label} className="px-3 py-3 text-left" {...sortProps} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {learners.map((l) => (
            <tr key={learnerKey(l)} className="hover:bg-slate-50">
              <td className="px-3 py-3">
                <OpenButton learner={l} onOpen={onOpen} />
                <div className="text-xs break-words text-slate-600">
                  <Email value={l.email} />
                </div>
              </td>
              <td className="px-3 py-3 text-slate-700 tabular-nums">{l.courses}</td>
              <td className="px-3 py-3 text-slate-700 tabular-nums">{l.completed}</td>
              <td className="px-3 py-3 text-slate-700 tabular-nums">{l.inProgress}</td>
              <td className="px-3 py-3 text-slate-700 tabular-nums">{l.notStarted}</td>
              <td className="px-3 py-3 text-slate-700 tabular-nums">{formatScore(l.averageScore)}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-700 tabular-nums">{formatDuration(l.totalTime)}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-700">{lastAccess(l)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Below 1024 px: one card per learner, like the dashboard's. */
export function LearnerCards({ learners, onOpen }: { learners: Learner[]; onOpen: (key: string) => void }) {
  return (
    <ul aria-label="Learners" className="grid gap-4 sm:grid-cols-2">
      {learners.map((l) => (
        <li key={learnerKey(l)} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
          <h2>
            <OpenButton learner={l} onOpen={onOpen} />
          </h2>
          <p className="text-sm break-all text-slate-600">{l.email || 'N/A'}</p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            {(
              [
                ['Courses Assigned', l.courses],
                ['Completed', l.completed],
                ['In Progress', l.inProgress],
                ['Not Started', l.notStarted],
                ['Average Score', formatScore(l.averageScore)],
                ['Total Time', formatDuration(l.totalTime)],
                ['Last Access', lastAccess(l)],
              ] as const
            ).map(([term, value]) => (
              <div key={term} className="flex gap-2">
                <dt className="text-slate-600">{term}:</dt>
                <dd className="text-slate-900 tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  )
}
