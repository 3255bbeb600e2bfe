import type { SsoFlowTestResult } from '@portal/shared'
import { errorMessage } from '@/lib/api-error'
import { Banner } from './banner'
import { Button } from './button'
import { Spinner } from './spinner'

/**
 * Sends the admin's browser to the provider (where the `start` mutation's answer points) for a
 * test sign-in that signs nobody in.
 */
export function SignInTestButton({
  start,
}: {
  start: {
    isPending: boolean
    isError: boolean
    error: unknown
    mutate: (variables: undefined, options: { onSuccess: (answer: { location: string }) => void }) => void
  }
}) {
  return (
    <>
      <Button
        variant="secondary"
        disabled={start.isPending}
        onClick={() => start.mutate(undefined, { onSuccess: ({ location }) => window.location.assign(location) })}
      >
        {start.isPending ? 'Starting...' : 'Test sign-in'}
      </Button>
      {start.isError && (
        <Banner variant="error">{errorMessage(start.error, 'The test sign-in could not start.')}</Banner>
      )}
    </>
  )
}

/** The test sign-in's result once its query has read it (claims or attributes, never a token). */
export function LoadedSignInTestResult({
  query,
}: {
  query: { data: SsoFlowTestResult | undefined; error: unknown; isPending: boolean }
}) {
  if (query.isPending) return <Spinner label="Loading the test sign-in..." />
  if (query.error || !query.data)
    return <Banner variant="error">{errorMessage(query.error, 'The test sign-in could not be loaded.')}</Banner>
  return <SignInTestResult result={query.data} />
}

/**
 * An admin's test sign-in at a single sign-on provider: the outcome, the e-mail and name the
 * portal reads, and every claim or attribute the provider sent (never a token).
 */
export function SignInTestResult({ result }: { result: SsoFlowTestResult }) {
  const claims = Object.entries(result.claims)
  return (
    <section
      aria-labelledby="sso-test-result-title"
      className="max-w-2xl space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm"
    >
      <h2 id="sso-test-result-title" className="text-base font-semibold text-slate-900">
        Test sign-in ({result.protocol === 'saml' ? 'SAML' : 'OpenID Connect'})
      </h2>
      <p role="status" className={result.ok ? 'font-medium text-green-800' : 'font-medium text-red-800'}>
        {result.message}
      </p>
      {(result.email || result.name) && (
        <p className="text-slate-700">
          The portal reads: e-mail <span className="font-mono">{result.email ?? 'none'}</span>, name{' '}
          <span className="font-mono">{result.name ?? 'none'}</span>
        </p>
      )}
      {claims.length > 0 && (
        <dl aria-label="What the provider sent" className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          {claims.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-slate-600">{name}</dt>
              <dd className="font-mono break-all text-slate-900">
                {typeof value === 'string' ? value : JSON.stringify(value)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
