import type { DispatchDelivery, UpdateDispatchDeliveryBody } from '@portal/shared'
import { useState } from 'react'
import { QueryContent } from '@/components/ui/query-state'
import { InlineInputForm } from '@/components/ui/inline-form'
import { LabelledSwitch } from '@/components/ui/switch'
import { errorMessage } from '@/lib/api-error'
import { useDispatchDelivery, useUpdateDispatchDelivery } from '../api/delivery'
import { COOKIES_NOTE, launchAuthText, onOff } from './delivery-fields'
import { StackedDetail } from '@/components/ui/detail-row'
import { CardSection } from '@/components/ui/card-section'

function DispatchDeliveryForm({ delivery }: { delivery: DispatchDelivery }) {
  const update = useUpdateDispatchDelivery(delivery.dispatchId)
  const [cssUrl, setCssUrl] = useState(delivery.cssUrl ?? '')
  const send = (body: UpdateDispatchDeliveryBody) => update.mutate(body)
  return (
    <div className="mt-4 space-y-4">
      <div className="flex flex-wrap items-center gap-6">
        <LabelledSwitch
          label="Registration instancing for this dispatch"
          text="Registration instancing"
          checked={delivery.instanced}
          disabled={update.isPending}
          onChange={(instanced) => send({ instanced })}
        />
        <LabelledSwitch
          label="Hash learner data for this dispatch"
          text="Hash learner data"
          checked={delivery.hashUserInfo ?? false}
          disabled={update.isPending}
          onChange={(hashUserInfo) => send({ hashUserInfo })}
        />
      </div>
      <InlineInputForm
        className="flex flex-wrap items-end gap-3"
        input={{
          label: "Style sheet URL for this dispatch (empty: the company's)",
          type: 'url',
          value: cssUrl,
          onChange: setCssUrl,
        }}
        submitLabel="Save style sheet"
        submitVariant="secondary"
        busy={update.isPending}
        onSubmit={() => send({ cssUrl: cssUrl.trim() === '' ? null : cssUrl.trim() })}
      />
      {update.error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errorMessage(update.error, 'The settings could not be saved.')}
        </p>
      )}
    </div>
  )
}

/** The dispatch's delivery settings; the admin switches them, everyone else reads them. */
export function DispatchDeliverySection({ dispatchId, canEdit }: { dispatchId: string; canEdit: boolean }) {
  const query = useDispatchDelivery(dispatchId)
  return (
    <CardSection id="dispatch-delivery" title="Delivery settings">
      <QueryContent query={query} loading="Loading delivery settings..." what="delivery settings">
        {(data) => (
          <>
            <dl className="mt-4 grid gap-4 md:grid-cols-2">
              <StackedDetail label="Registration instancing">{data.instanced ? 'On' : 'Off'}</StackedDetail>
              <StackedDetail label="Hash learner data">{onOff(data.hashUserInfo)}</StackedDetail>
              <StackedDetail label="Launch authentication (company)">
                {launchAuthText(data.companyLaunchAuth)}
              </StackedDetail>
              <StackedDetail label="Style sheet URL">{data.effectiveCssUrl ?? 'None'}</StackedDetail>
            </dl>
            <p className="mt-3 text-xs text-slate-600">{data.instancingExplanation}</p>
            {data.companyLaunchAuth?.type !== 'vault' && <p className="mt-1 text-xs text-slate-600">{COOKIES_NOTE}</p>}
            {canEdit && <DispatchDeliveryForm key={JSON.stringify(data)} delivery={data} />}
          </>
        )}
      </QueryContent>
    </CardSection>
  )
}
