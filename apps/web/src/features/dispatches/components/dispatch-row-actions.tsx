import type { Dispatch } from '@portal/shared'
import { DownloadPackageButton } from './download-package-button'
import { ViewDetailsLink } from './view-details-link'

/** A dispatch's actions in a list, as a table row or a card shows them: View Details and the package download. */
export function DispatchRowActions({
  dispatch,
  showClient,
  className,
}: {
  dispatch: Dispatch
  showClient: boolean
  className: string
}) {
  return (
    <div className={className}>
      <ViewDetailsLink dispatch={dispatch} showClient={showClient} />
      <DownloadPackageButton dispatch={dispatch} rowLabel />
    </div>
  )
}
