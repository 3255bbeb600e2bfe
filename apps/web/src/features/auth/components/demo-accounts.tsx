import { useAuthConfig } from '../api/auth-config'
import { DemoAccountList, DemoBox } from './demo-box'

/** Demo mode only (GET /api/auth/config): the demo accounts and their shared password. */
export function DemoAccounts() {
  const { data } = useAuthConfig()
  if (!data?.demoMode || data.demoAccounts.length === 0) return null
  return (
    <DemoBox id="demo-accounts-title" title="Demo accounts" tone="amber">
      <DemoAccountList accounts={data.demoAccounts}>
        {(account) => <span className="capitalize">{account.role}</span>}
      </DemoAccountList>
      {data.demoPassword && (
        <p className="mt-2">
          Password: <span className="font-mono">{data.demoPassword}</span>
        </p>
      )}
    </DemoBox>
  )
}
