import { useAuthConfig } from '../api/auth-config'

/** Demo mode only (GET /api/auth/config): the demo accounts and their shared password. */
export function DemoAccounts() {
  const { data } = useAuthConfig()
  if (!data?.demoMode || data.demoAccounts.length === 0) return null
  return (
    <section
      aria-labelledby="demo-accounts-title"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="demo-accounts-title" className="font-semibold">
        Demo accounts
      </h2>
      <ul className="mt-2 space-y-1">
        {data.demoAccounts.map((account) => (
          <li key={account.email} className="flex flex-wrap justify-between gap-x-3">
            <span className="font-mono break-all">{account.email}</span>
            <span className="capitalize">{account.role}</span>
          </li>
        ))}
      </ul>
      {data.demoPassword && (
        <p className="mt-2">
          Password: <span className="font-mono">{data.demoPassword}</span>
        </p>
      )}
    </section>
  )
}
