import type { Dispatch } from '@portal/shared'
import { Link } from 'react-router'
import { paths } from '@/config/paths'

export const clientName = (d: Dispatch) => d.destinationName || d.destinationId
export const courseName = (d: Dispatch) => d.courseTitle || d.courseId

/** docs/product-rules.md §2 Actions: View Details, to /dispatches/{id}. The hidden part names the row for screen readers. */
export function ViewDetailsLink({ dispatch, showClient }: { dispatch: Dispatch; showClient: boolean }) {
  return (
    <Link
      to={paths.dispatch.getHref(dispatch.id)}
      className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-blue-800 hover:bg-slate-50"
    >
      View Details
      <span className="sr-only">
        {' '}
        of {courseName(dispatch)}
        {showClient ? ` for ${clientName(dispatch)}` : ''}
      </span>
    </Link>
  )
}
