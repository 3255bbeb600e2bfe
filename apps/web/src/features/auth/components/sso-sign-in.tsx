import { SSO_ERRORS, type SecondStep, type SsoErrorCode } from '@portal/shared'
import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Banner } from '@/components/ui/banner'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { exchangeSsoCode, ssoStartUrl, useSsoDemo } from '../api/sso'

/**
 * The sign-in page's side of single sign-on: `/login?company=<id>` starts the company's flow
 * (the client's intranet link), the callback's one-time code in the address fragment is
 * exchanged for the session, and a refusal's code is shown as its message.
 */
export function SsoSignIn({ onSecondStep }: { onSecondStep?: (step: SecondStep) => void } = {}) {
  const [params] = useSearchParams()
  const company = params.get('company')
  const errorCode = params.get('sso_error')
  const [code] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('sso_code'))
  const [failure, setFailure] = useState<string | null>(null)
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true // StrictMode mounts twice; a code is spent once
    if (code) {
      // The code leaves the address at once: it is not kept in the history.
      window.history.replaceState(null, '', window.location.pathname)
      exchangeSsoCode(code)
        .then((answer) => answer.secondStep && onSecondStep?.(answer.secondStep))
        .catch((error: unknown) => setFailure(errorMessage(error, SSO_ERRORS.failed)))
    } else if (company) {
      window.location.assign(ssoStartUrl(company))
    }
  }, [code, company, onSecondStep])

  const message = failure ?? (errorCode && errorCode in SSO_ERRORS ? SSO_ERRORS[errorCode as SsoErrorCode] : null)
  return (
    <>
      {message && (
        <Banner variant="error" className="mb-4">
          {message}
        </Banner>
      )}
      {(code || company) && !failure && <Spinner label="Signing you in..." className="mb-4 justify-center" />}
    </>
  )
}

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
