import { companyPackagesFileName, packageFileName, type Dispatch } from '@portal/shared'
import { DownloadButton } from '@/components/ui/download-button'
import { clientName, courseName } from './view-details-link'

/** The dispatch's SCORM package, named `<company> - <course>.zip` as the server names it. */
export function DownloadPackageButton({ dispatch, rowLabel = false }: { dispatch: Dispatch; rowLabel?: boolean }) {
  return (
    <DownloadButton
      path={`/api/dispatches/${encodeURIComponent(dispatch.id)}/package`}
      fileName={packageFileName(clientName(dispatch), courseName(dispatch))}
      label="Download package"
      {...(rowLabel ? { srLabel: `of ${courseName(dispatch)} for ${clientName(dispatch)}` } : {})}
    />
  )
}

/** Every package of the signed-in client's company in one zip. */
export function DownloadAllPackagesButton({ companyName }: { companyName: string }) {
  return (
    <DownloadButton
      path="/api/dispatches/packages"
      fileName={companyPackagesFileName(companyName)}
      size="md"
      label="Download all packages"
    />
  )
}
