import { COMPANY_MESSAGES, type CompanySyncResponse } from '@portal/shared'
import { RefreshCw } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api-error'
import { useSyncCompanies } from '../api/sync-companies'

/** docs/product-rules.md §9: the sync button's label goes back after 3 s. */
export const SYNC_LABEL_RESET_MS = 3000

const LABELS = { idle: 'Sync Companies', busy: 'Syncing...', done: 'Sync complete!', failed: 'Sync failed!' } as const
type SyncState = keyof typeof LABELS

const TILES: { key: keyof CompanySyncResponse; label: string }[] = [
  { key: 'created', label: 'Created' },
  { key: 'updated', label: 'Updated' },
  { key: 'skipped', label: 'Skipped' },
  { key: 'errors', label: 'Errors' },
]

/** docs/product-rules.md §2 Companies: the admin's sync from the hosting provider and its result tiles. */
export function CompanySync() {
  const sync = useSyncCompanies()
  const [state, setState] = useState<SyncState>('idle')
  const [result, setResult] = useState<CompanySyncResponse | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (state !== 'done' && state !== 'failed') return
    const timer = setTimeout(() => setState('idle'), SYNC_LABEL_RESET_MS)
    return () => clearTimeout(timer)
  }, [state])

  const run = () => {
    setState('busy')
    setError(null)
    sync.mutate(undefined, {
      onSuccess: (counts) => {
        setResult(counts)
        setState('done')
      },
      onError: (failure) => {
        setError(errorMessage(failure, COMPANY_MESSAGES.syncFailed))
        setState('failed')
      },
    })
  }

  return (
    <section aria-label="Sync from SCORM Cloud" className="space-y-3">
      <Button onClick={run} disabled={state === 'busy'}>
        <RefreshCw aria-hidden="true" className={state === 'busy' ? 'size-4 animate-spin' : 'size-4'} />
        <span aria-live="polite">{LABELS[state]}</span>
      </Button>
      {error && <Banner variant="error">{error}</Banner>}
      {result && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {TILES.map(({ key, label }) => (
            <div key={key} className="rounded-lg border border-slate-200 bg-white p-3 shadow-xs">
              <dt className="text-xs font-medium text-slate-600 uppercase">{label}</dt>
              <dd className="text-xl font-semibold text-slate-900 tabular-nums">{result[key]}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
