import {
  LOG_CSV_FILENAME,
  LOG_MESSAGES,
  LOG_PAGE_SIZE,
  LOG_SEARCH_DEBOUNCE_MS,
  logDateRangeError,
  type ActivityAction,
  type LogFilter,
} from '@portal/shared'
import { ScrollText } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { Pagination } from '@/components/ui/pagination'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useLogUsers } from '../api/get-log-users'
import { downloadLogsCsv, useLogs } from '../api/get-logs'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { saveFile } from '@/lib/save-file'
import type { UiEventHandler } from '@/types/ui-event'
import { EMPTY_FILTERS, LogFilters, type LogFilterValues } from './log-filters'
import { LogTable } from './log-table'
import { useViewedEvent } from '@/hooks/use-viewed-event'

const count = (n: number) => n.toLocaleString('en-US')

/** docs/product-rules.md §2 "Activity Logs" (admins; the route redirects everyone else). */
export function ActivityLogs({ onEvent }: { onEvent: UiEventHandler }) {
  const [values, setValues] = useState<LogFilterValues>(EMPTY_FILTERS)
  const [page, setPage] = useState(1)
  const [busy, setBusy] = useState(false)
  const [downloadError, setDownloadError] = useState<string | null>(null)
  const searchTerm = useDebouncedValue(values.search.trim(), LOG_SEARCH_DEBOUNCE_MS)
  const dateError = logDateRangeError(values.startDate, values.endDate)
  const users = useLogUsers()

  const filter = useMemo<LogFilter>(
    () => ({
      startDate: values.startDate,
      endDate: values.endDate,
      userId: values.userId,
      action: values.action as ActivityAction | '',
      searchTerm,
    }),
    [values.startDate, values.endDate, values.userId, values.action, searchTerm],
  )
  const logs = useLogs({ ...filter, page, limit: LOG_PAGE_SIZE }, !dateError)
  const data = logs.data
  const totalPages = data?.totalPages ?? 0

  useViewedEvent(onEvent, 'LOGS_PAGE_VIEWED')

  // docs/product-rules.md §4: the page stays within 1..totalPages (rows may have gone since).
  if (!logs.isPlaceholderData && totalPages > 0 && page > totalPages) setPage(totalPages)

  // docs/product-rules.md §2: any filter change goes back to page 1.
  const change = (changes: Partial<LogFilterValues>) => {
    setValues((current) => ({ ...current, ...changes }))
    setPage(1)
  }

  const download = async () => {
    if (busy) return
    if (data && data.totalLogs === 0) {
      window.alert(LOG_MESSAGES.nothingToDownload)
      return
    }
    setBusy(true)
    setDownloadError(null)
    try {
      saveFile(await downloadLogsCsv(filter), LOG_CSV_FILENAME)
    } catch (error) {
      const message = errorMessage(error, LOG_MESSAGES.downloadFailed)
      setDownloadError(message)
      window.alert(`Error downloading CSV: ${message}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="space-y-6">
      <LogFilters
        values={values}
        users={users.data ?? []}
        dateError={dateError}
        busy={busy}
        onChange={change}
        onReset={() => change(EMPTY_FILTERS)}
        onDownload={() => void download()}
      />
      {downloadError && <Banner variant="error">{downloadError}</Banner>}
      {logs.error && <Banner variant="error">{errorMessage(logs.error, LOG_MESSAGES.fetchFailed)}</Banner>}
      {data && (
        <p className="text-sm font-medium text-slate-800" aria-live="polite">
          {`Total Logs: ${count(data.totalLogs)}${data.totalLogsCapped ? '+' : ''}`}
        </p>
      )}
      {logs.isPending && !dateError ? (
        <Spinner label="Loading logs..." />
      ) : data && data.logs.length === 0 ? (
        <EmptyState icon={ScrollText} title={LOG_MESSAGES.empty} />
      ) : (
        data && (
          <div aria-busy={logs.isPlaceholderData} className={logs.isPlaceholderData ? 'opacity-60' : undefined}>
            <LogTable logs={data.logs} />
          </div>
        )
      )}
      {data && data.totalLogs > 0 && (
        <div className="flex flex-col items-center justify-between gap-3 md:flex-row">
          <p className="text-sm text-slate-700">
            {`Page ${page} of ${Math.max(totalPages, 1)}${data.totalLogsCapped ? '+' : ''} (Total: ${count(data.totalLogs)}${data.totalLogsCapped ? '+' : ''} logs)`}
          </p>
          <Pagination
            label="Log pages"
            page={page}
            totalPages={totalPages}
            items={[]}
            onPageChange={setPage}
            alwaysShown
          />
        </div>
      )}
    </div>
  )
}
