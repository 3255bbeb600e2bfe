import { Spinner } from '@/components/ui/spinner'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CardSection } from '@/components/ui/card-section'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { errorMessage } from '@/lib/api-error'
import {
  useCompanyAlertSettings,
  useGlobalAlertSettings,
  useSaveCompanyAlertSettings,
  useSaveGlobalAlertSettings,
  useRestoreGlobalThresholds,
} from '../api/alerts-api'
import { ThresholdForm } from './threshold-form'

/** Settings (admin): the global thresholds, and the way to the mail outbox. */
export function GlobalAlertSettings() {
  const { data, error, isPending } = useGlobalAlertSettings()
  const save = useSaveGlobalAlertSettings()
  return (
    <CardSection
      id="alert-settings-heading"
      title="Alerts"
      className="space-y-4"
      headerClassName="flex flex-wrap items-baseline justify-between gap-2"
      aside={
        <Link to={paths.outbox.getHref()} className="text-sm">
          Mail outbox
        </Link>
      }
    >
      <p className="text-sm text-slate-600">
        Defaults for every company; a company can have its own on its detail screen.
      </p>
      {isPending ? (
        <Spinner label="Loading alert settings..." />
      ) : error || !data ? (
        <Banner variant="error">{errorMessage(error, 'Failed to load alert settings')}</Banner>
      ) : (
        <ThresholdForm
          key={JSON.stringify(data)}
          value={data}
          saving={save.isPending}
          saved={save.isSuccess}
          error={save.error ? errorMessage(save.error, 'Failed to save alert settings') : null}
          onSave={(body) => save.mutate(body)}
        />
      )}
    </CardSection>
  )
}

/** company detail (admin): the company's own thresholds. */
export function CompanyAlertSettings({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useCompanyAlertSettings(companyId)
  const save = useSaveCompanyAlertSettings(companyId)
  const restore = useRestoreGlobalThresholds(companyId)
  const failure = save.error ?? restore.error
  return (
    <CardSection id="company-alerts-heading" title="Alert thresholds" className="space-y-3">
      {isPending ? (
        <Spinner label="Loading alert settings..." />
      ) : error || !data ? (
        <Banner variant="error">{errorMessage(error, 'Failed to load alert settings')}</Banner>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            {data.overridden ? 'This company has its own thresholds.' : 'This company uses the global thresholds.'}
          </p>
          <ThresholdForm
            key={JSON.stringify(data)}
            value={data}
            saving={save.isPending || restore.isPending}
            saved={save.isSuccess || restore.isSuccess}
            saveLabel="Apply company thresholds"
            error={failure ? errorMessage(failure, 'Failed to save alert settings') : null}
            onSave={(body) => {
              restore.reset()
              save.mutate(body)
            }}
            extraAction={
              data.overridden && (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={save.isPending || restore.isPending}
                  onClick={() => {
                    save.reset()
                    restore.mutate()
                  }}
                >
                  Use the global thresholds
                </Button>
              )
            }
          />
        </>
      )}
    </CardSection>
  )
}
