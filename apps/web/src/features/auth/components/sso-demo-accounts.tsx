import { ssoStartUrl, useSsoDemo } from '../api/sso'

/** Demo mode only: the built-in provider's accounts, to try single sign-on. */
export function SsoDemoAccounts() {
  const { data } = useSsoDemo()
  if (!data?.companyId || data.accounts.length === 0) return null
  return (
    <section
      aria-labelledby="sso-demo-title"
      className="mt-4 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950"
    >
      <h2 id="sso-demo-title" className="font-semibold">
        Single sign-on demo ({data.companyName})
      </h2>
      <p className="mt-1">
        Type one of these e-mails and choose &ldquo;Continue with {data.companyName} sign-in&rdquo;, or{' '}
        <a className="font-medium underline" href={ssoStartUrl(data.companyId)}>
          go to the demo provider
        </a>
        . Its page accepts {data.password ?? 'any password'}.
      </p>
      <ul className="mt-2 space-y-1">
        {data.accounts.map((account) => (
          <li key={account.email} className="flex flex-wrap justify-between gap-x-3">
            <span className="font-mono break-all">{account.email}</span>
            <span>{account.name}</span>
          </li>
        ))}
      </ul>
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
          <ul className="mt-2 space-y-1">
            {data.staff.accounts.map((account) => (
              <li key={account.email} className="flex flex-wrap justify-between gap-x-3">
                <span className="font-mono break-all">{account.email}</span>
                <span>
                  {account.name} ({account.role})
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
