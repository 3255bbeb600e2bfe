import { SSO_ERRORS, type SecondStep, type SsoErrorCode } from '@portal/shared'
import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Banner } from '@/components/ui/banner'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { exchangeSsoCode, ssoStartUrl } from '../api/sso'

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
