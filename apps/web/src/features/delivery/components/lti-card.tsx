import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { QueryContent } from '@/components/ui/query-state'
import { errorMessage } from '@/lib/api-error'
import { revealLtiSecret, useDispatchLti } from '../api/delivery'
import { CopyField } from './copy-field'
import { CardSection } from '@/components/ui/card-section'

function SharedSecret({ dispatchId }: { dispatchId: string }) {
  const [secret, setSecret] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const reveal = async () => {
    setBusy(true)
    setError(null)
    try {
      setSecret((await revealLtiSecret(dispatchId)).sharedSecret)
    } catch (e) {
      setError(errorMessage(e, 'The secret could not be shown.'))
    } finally {
      setBusy(false)
    }
  }
  if (secret !== null) return <CopyField label="Shared secret" value={secret} />
  return (
    <div>
      <dt className="text-sm font-medium text-slate-600">Shared secret</dt>
      <dd className="mt-1 flex flex-wrap items-center gap-2">
        <code className="rounded bg-slate-50 px-2 py-1 text-xs text-slate-500">••••••••</code>
        <Button variant="secondary" size="sm" onClick={() => void reveal()} disabled={busy}>
          Reveal
        </Button>
        <span className="text-xs text-slate-600">Each reveal is recorded in the activity log.</span>
      </dd>
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}

/**
 * LTI delivery for LMSs that prefer it to the SCORM package: SCORM Cloud's LTI 1.1 launch data
 * and LTI 1.3 tool configuration, with copy buttons and how to add them in the common LMSs.
 */
export function LtiCard({ dispatchId }: { dispatchId: string }) {
  const query = useDispatchLti(dispatchId)
  return (
    <CardSection id="lti-delivery" title="LTI delivery">
      <p className="mt-1 text-sm text-slate-600">
        Instead of importing the SCORM package, an LMS can launch this course as an external tool.
      </p>
      <QueryContent query={query} loading="Loading LTI data..." what="LTI data">
        {(data) => (
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <div>
              <h3 className="text-sm font-semibold text-slate-800">LTI 1.1</h3>
              <dl className="mt-3 space-y-3">
                <CopyField label="Launch URL" value={data.lti11.launchUrl} />
                <CopyField label="Consumer key" value={data.lti11.consumerKey} />
                {data.lti11.canRevealSecret ? (
                  <SharedSecret dispatchId={dispatchId} />
                ) : (
                  <div>
                    <dt className="text-sm font-medium text-slate-600">Shared secret</dt>
                    <dd className="mt-1 text-xs text-slate-600">
                      Ask your account manager or the client for the secret.
                    </dd>
                  </div>
                )}
              </dl>
            </div>
            <div>
              <h3 className="text-sm font-semibold text-slate-800">LTI 1.3</h3>
              <dl className="mt-3 space-y-3">
                <CopyField label="Target link URI" value={data.lti13.targetLinkUri} />
                <CopyField label="Login initiation URL" value={data.lti13.oidcLoginInitiationsUrl} />
                <CopyField label="Redirect URI" value={data.lti13.redirectUri} />
                <CopyField label="Public keyset URL" value={data.lti13.jsonWebKeySetUrl} />
                <CopyField label="Public key" value={data.lti13.publicKey} multiline />
              </dl>
            </div>
            <details className="text-sm text-slate-700 lg:col-span-2">
              <summary className="cursor-pointer font-medium text-slate-800">How to add this in your LMS</summary>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                <li>
                  <strong>Moodle:</strong> Site administration → Plugins → Activity modules → External tool → Manage
                  tools → “configure a tool manually”. LTI 1.1: paste the launch URL, consumer key and shared secret.
                  LTI 1.3: paste the login initiation URL, redirect URI and public keyset URL, then give SCORM Cloud the
                  client ID and deployment ID Moodle shows.
                </li>
                <li>
                  <strong>Canvas:</strong> Admin → Developer Keys → + LTI Key for LTI 1.3 (redirect URI, target link
                  URI, login initiation URL, public keyset URL), then Settings → Apps → + App → By Client ID. LTI 1.1:
                  Settings → Apps → + App → Manual Entry with the launch URL, consumer key and shared secret.
                </li>
                <li>
                  <strong>Blackboard:</strong> Administrator Panel → LTI Tool Providers → Register LTI 1.1 Provider
                  (consumer key and secret, launch URL as the link), or Register LTI 1.3/Advantage Tool with the values
                  above.
                </li>
              </ul>
            </details>
          </div>
        )}
      </QueryContent>
    </CardSection>
  )
}
