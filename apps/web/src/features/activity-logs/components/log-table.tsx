import { logUserText, type LogEntry } from '@portal/shared'
import { ResponsiveTable, type Column } from '@/components/ui/responsive-table'
import { formatLogTime } from '../utils/format-log'
import { LogDetails } from './log-details'

/** docs/product-rules.md §2: Timestamp, User, Action, Details, IP Address. */
const COLUMNS: Column<LogEntry>[] = [
  {
    header: 'Timestamp',
    primary: true,
    className: 'whitespace-nowrap tabular-nums',
    cell: (log) => <span className="font-medium text-slate-900 tabular-nums">{formatLogTime(log.createdAt)}</span>,
  },
  { header: 'User', className: 'min-w-48 break-words', cell: (log) => logUserText(log.user) },
  {
    header: 'Action',
    className: 'font-medium whitespace-nowrap text-slate-900',
    cell: (log) => <span className="break-all">{log.action}</span>,
  },
  {
    header: 'Details',
    className: 'min-w-64 max-w-md text-slate-700',
    cell: (log) => <LogDetails details={log.details} />,
  },
  { header: 'IP Address', className: 'whitespace-nowrap tabular-nums', cell: (log) => log.ipAddress || '-' },
]

export function LogTable({ logs }: { logs: readonly LogEntry[] }) {
  return <ResponsiveTable caption="Activity logs" columns={COLUMNS} rows={logs} rowKey={(log) => String(log.id)} />
}
