import {
  DELIVERY_MESSAGES,
  type CompanyDelivery,
  type LaunchAuthType,
  type UpdateCompanyDeliveryBody,
} from '@portal/shared'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { QueryContent } from '@/components/ui/query-state'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { LabelledSwitch, Switch } from '@/components/ui/switch'
import { Toast } from '@/components/ui/toast'
import { errorMessage } from '@/lib/api-error'
import { submitHandler } from '@/lib/form-submit'
import { useCompanyDelivery, useUpdateCompanyDelivery } from '../api/delivery'
import { COOKIES_NOTE, launchAuthText, onOff } from './delivery-fields'
import { StackedDetail } from '@/components/ui/detail-row'
import { CardSection } from '@/components/ui/card-section'

const INSTANCING = { on: 'On', off: 'Off', mixed: 'Mixed (some dispatches on)', none: 'No dispatches yet' } as const

interface Draft {
  type: string
  ipAddress: boolean
  fingerprint: boolean
  expiry: string
  slidingExpiry: string
  instanced: boolean
  hashUserInfo: boolean
  cssUrl: string
}

/** The vault's two durations, in seconds. */
const SECONDS_FIELDS = [
  { key: 'expiry', label: 'Expiry (seconds, 0 = default)' },
  { key: 'slidingExpiry', label: 'Sliding expiry (seconds, 0 = none)' },
] as const

const draftOf = (d: CompanyDelivery): Draft => ({
  type: d.launchAuth?.type ?? 'cookies',
  ipAddress: d.launchAuth?.ipAddress ?? false,
  fingerprint: d.launchAuth?.fingerprint ?? false,
  expiry: String(d.launchAuth?.expiry ?? 0),
  slidingExpiry: String(d.launchAuth?.slidingExpiry ?? 0),
  instanced: d.instancing !== 'off',
  hashUserInfo: d.hashUserInfo ?? false,
  cssUrl: d.cssUrl ?? '',
})

/** Only what the admin changed goes to the server (and so to SCORM Cloud). */
function changes(before: Draft, after: Draft): UpdateCompanyDeliveryBody {
  const body: UpdateCompanyDeliveryBody = {}
  const authKeys = ['type', 'ipAddress', 'fingerprint', 'expiry', 'slidingExpiry'] as const
  if (authKeys.some((k) => before[k] !== after[k]))
    body.launchAuth = {
      type: after.type as LaunchAuthType, // the select offers the two types only
      ipAddress: after.ipAddress,
      fingerprint: after.fingerprint,
      expiry: Number(after.expiry),
      slidingExpiry: Number(after.slidingExpiry),
    }
  if (before.instanced !== after.instanced) body.instanced = after.instanced
  if (before.hashUserInfo !== after.hashUserInfo) body.hashUserInfo = after.hashUserInfo
  if (before.cssUrl !== after.cssUrl) body.cssUrl = after.cssUrl.trim() === '' ? null : after.cssUrl.trim()
  return body
}

function DeliveryForm({
  companyId,
  delivery,
  onSaved,
}: {
  companyId: string
  delivery: CompanyDelivery
  /** true once saved, false on the next edit; the section keeps it (the form is remounted with the new data). */
  onSaved: (saved: boolean) => void
}) {
  const initial = draftOf(delivery)
  const [draft, setDraft] = useState(initial)
  const update = useUpdateCompanyDelivery(companyId)
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    onSaved(false)
    setDraft((d) => ({ ...d, [key]: value }))
  }
  const body = changes(initial, draft)
  const save = () =>
    update.mutate(body, {
      onSuccess: (next) => {
        setDraft(draftOf(next))
        onSaved(true)
      },
    })
  const vault = draft.type === 'vault'
  return (
    <form className="mt-4 space-y-5" onSubmit={submitHandler(save)}>
      <div className="grid gap-4 md:grid-cols-2">
        <Select
          label="Launch authentication"
          value={draft.type}
          onChange={(e) => set('type', e.target.value)}
          options={[
            { value: 'cookies', label: 'Cookies' },
            { value: 'vault', label: 'Vault' },
          ]}
        />
        <p className="self-end text-xs text-slate-600">{COOKIES_NOTE}</p>
        {vault && (
          <>
            <LabelledSwitch label="Check IP address" checked={draft.ipAddress} onChange={(v) => set('ipAddress', v)} />
            <LabelledSwitch
              label="Check browser fingerprint"
              checked={draft.fingerprint}
              onChange={(v) => set('fingerprint', v)}
            />
            {SECONDS_FIELDS.map(({ key, label }) => (
              <Input
                key={key}
                label={label}
                type="number"
                min={0}
                value={draft[key]}
                onChange={(e) => set(key, e.target.value)}
              />
            ))}
          </>
        )}
      </div>
      <div className="flex items-start gap-3">
        <Switch label="Registration instancing" checked={draft.instanced} onChange={(v) => set('instanced', v)} />
        <div className="text-sm">
          <p className="font-medium text-slate-800">
            Registration instancing{delivery.instancing === 'mixed' ? ' (now mixed across dispatches)' : ''}
          </p>
          <p className="text-slate-600">{delivery.instancingExplanation}</p>
        </div>
      </div>
      <div className="flex items-start gap-3">
        <Switch label="Hash learner data" checked={draft.hashUserInfo} onChange={(v) => set('hashUserInfo', v)} />
        <div className="text-sm">
          <p className="font-medium text-slate-800">Hash learner data</p>
          <p className="text-slate-600">
            SCORM Cloud stores learners anonymised: names and e-mails from the LMS are hashed, so reports show no
            personal data.
          </p>
        </div>
      </div>
      <Input
        label="Style sheet URL (http or https)"
        type="url"
        value={draft.cssUrl}
        placeholder="https://"
        onChange={(e) => set('cssUrl', e.target.value)}
      />
      {update.error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errorMessage(update.error, DELIVERY_MESSAGES.nothingToUpdate)}
        </p>
      )}
      <Button type="submit" disabled={update.isPending || Object.keys(body).length === 0}>
        Save delivery settings
      </Button>
    </form>
  )
}

/** A company's delivery settings: editable by the admin, read-only for the others. */
export function CompanyDeliverySection({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const query = useCompanyDelivery(companyId)
  const [saved, setSaved] = useState(false)
  return (
    <CardSection id="delivery-settings" title="Delivery settings">
      <p className="mt-1 text-sm text-slate-600">How this company&apos;s LMS launches its courses from SCORM Cloud.</p>
      <QueryContent query={query} loading="Loading delivery settings..." what="delivery settings">
        {(data) =>
          canEdit ? (
            <>
              <DeliveryForm key={JSON.stringify(data)} companyId={companyId} delivery={data} onSaved={setSaved} />
              {saved && (
                <div className="mt-3">
                  <Toast message="Delivery settings saved in SCORM Cloud." />
                </div>
              )}
            </>
          ) : (
            <>
              <dl className="mt-4 grid gap-4 md:grid-cols-2">
                <StackedDetail label="Launch authentication">{launchAuthText(data.launchAuth)}</StackedDetail>
                <StackedDetail label="Registration instancing">{INSTANCING[data.instancing]}</StackedDetail>
                <StackedDetail label="Hash learner data">{onOff(data.hashUserInfo)}</StackedDetail>
                <StackedDetail label="Style sheet URL">{data.cssUrl ?? 'None'}</StackedDetail>
              </dl>
              <p className="mt-3 text-xs text-slate-600">{data.instancingExplanation}</p>
            </>
          )
        }
      </QueryContent>
    </CardSection>
  )
}
