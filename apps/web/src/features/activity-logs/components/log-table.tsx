import { logDetailsText, logUserText, type LogEntry } from '@portal/shared'
import { formatLogTime } from '../utils/format-log'

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase'
const td = 'px-4 py-3 align-top'

/** SPEC §2: Timestamp, User, Action, Details, IP Address. */
export function LogTable({ logs }: { logs: readonly LogEntry[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Activity logs</caption>
        <thead className="bg-slate-50">
          <tr>
            {['Timestamp', 'User', 'Action', 'Details', 'IP Address'].map((header) => (
              <th key={header} scope="col" className={th}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {logs.map((log) => (
            <tr key={log.id}>
              <td className={`${td} whitespace-nowrap tabular-nums`}>{formatLogTime(log.createdAt)}</td>
              <td className={td}>{logUserText(log.user)}</td>
              <td className={`${td} font-medium whitespace-nowrap text-slate-900`}>{log.action}</td>
              <td className={`${td} max-w-md font-mono text-xs break-words text-slate-700`}>
                {logDetailsText(log.details)}
              </td>
              <td className={`${td} whitespace-nowrap`}>{log.ipAddress || '-'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
