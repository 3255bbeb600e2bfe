import { ssoStartUrl, useSsoDemo } from '../api/sso'
import { DemoAccountList, DemoBox } from './demo-box'

/** Demo mode only: the built-in provider's accounts, to try single sign-on. */
export function SsoDemoAccounts() {
  const { data } = useSsoDemo()
  if (!data?.companyId || data.accounts.length === 0) return null
  return (
    <DemoBox id="sso-demo-title" title={`Single sign-on demo (${data.companyName})`} tone="blue">
      <p className="mt-1">
        Type one of these e-mails and choose &ldquo;Continue with {data.companyName} sign-in&rdquo;, or{' '}
        <a className="font-medium underline" href={ssoStartUrl(data.companyId)}>
          go to the demo provider
        </a>
        . Its page accepts {data.password ?? 'any password'}.
      </p>
      <DemoAccountList accounts={data.accounts}>{(account) => <span>{account.name}</span>}</DemoAccountList>
      {data.staff && (
        <>
          <h3 className="mt-3 font-semibold">Staff sign-in ({data.staff.name})</h3>
          <p className="mt-1">
            The vendor&rsquo;s own staff sign in through{' '}
            <a className="font-medium underline" href={data.staff.startPath}>
              the {data.staff.name} provider
            </a>
            ; the provider&rsquo;s group gives the role.
          </p>
          <DemoAccountList accounts={data.staff.accounts}>
            {(account) => (
              <span>
                {account.name} ({account.role})
              </span>
            )}
          </DemoAccountList>
        </>
      )}
    </DemoBox>
  )
}
