import { Banner } from '@/components/ui/banner'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { errorMessage } from '@/lib/api-error'
import { useCompanyApiKeys, useSetCompanyApiKeys } from '../api/api-keys-api'

/** The admin's switch on a company: whether its users may make API keys for it. */
export function CompanyApiKeys({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useCompanyApiKeys(companyId)
  const update = useSetCompanyApiKeys(companyId)
  if (isPending) return <Spinner label="Loading..." />
  if (error || !data) return <Banner variant="error">{errorMessage(error, 'Failed to load the setting')}</Banner>
  return (
    <div className="space-y-3">
      {update.error && <Banner variant="error">{errorMessage(update.error, 'The setting was not saved.')}</Banner>}
      <div className="flex items-center gap-3">
        <Switch
          label="Allow this company's users to create API keys"
          checked={data.allowed}
          disabled={update.isPending}
          onChange={(allowed) => update.mutate(allowed)}
        />
        <span className="text-sm text-slate-800">Allow this company&apos;s users to create API keys</span>
      </div>
      <p className="text-sm text-slate-600">
        Their keys read and change this company&apos;s data only, never more than the person who made them. Turning this
        off stops the company&apos;s keys at once. The same setting lets them add webhooks for the company; while it is
        off, none of the company&apos;s webhooks is sent.
      </p>
    </div>
  )
}
