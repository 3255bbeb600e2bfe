import { MFA_STAFF_ROLES, type Role } from '@portal/shared'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { errorMessage } from '@/lib/api-error'
import { TitledSection } from '@/components/ui/card-section'
import {
  useCompanyMfaRule,
  useMfaRoleRules,
  useSaveCompanyMfaRule,
  useSaveMfaRoleRules,
  useUserMfa,
  useUserMfaMutations,
} from '../api/mfa-api'

const ROLE_NAMES: Record<Role, string> = { admin: 'Admin', internal: 'Internal', sales: 'Sales', client: 'Client' }

/** User Management: a user's second factors and sessions, the reset for a lost phone. */
export function UserSecurityPanel({ userId }: { userId: string }) {
  const { data, error } = useUserMfa(userId)
  const m = useUserMfaMutations(userId)
  if (error) return <Banner variant="error">{errorMessage(error, 'Could not load the sign-in security.')}</Banner>
  if (!data) return <Spinner label="Loading..." />
  const failure = m.reset.error ?? m.endSessions.error
  return (
    <TitledSection
      id="user-security"
      title="Sign-in security"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <p className="text-sm text-slate-700">
        {data.factors.length === 0
          ? 'No second factor.'
          : `Second factors: ${data.factors.map((f) => f.name).join(', ')} · recovery codes left: ${data.recoveryCodesLeft}.`}{' '}
        {data.required ? 'A second factor is required.' : 'A second factor is not required.'} Active sessions:{' '}
        {data.activeSessions}.
      </p>
      {failure && <Banner variant="error">{errorMessage(failure, 'The change failed.')}</Banner>}
      {m.endSessions.data && <Banner variant="success">{m.endSessions.data.message}</Banner>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={data.activeSessions === 0 || m.endSessions.isPending}
          onClick={() => m.endSessions.mutate()}
        >
          End all sessions
        </Button>
        <Button
          variant="danger"
          size="sm"
          disabled={data.factors.length === 0 || m.reset.isPending}
          onClick={() => {
            if (window.confirm('Remove every second factor and recovery code of this user? They are told by mail.')) {
              m.reset.mutate()
            }
          }}
        >
          Reset second factors
        </Button>
      </div>
    </TitledSection>
  )
}

/** Settings: "second factor required" per staff role. */
export function MfaRoleRulesSection() {
  const { data, error } = useMfaRoleRules()
  const save = useSaveMfaRoleRules()
  return (
    <TitledSection
      id="mfa-rules"
      title="Two-step verification"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <p className="text-sm text-slate-600">
        Staff of a role marked here must set up a second factor at their next sign-in. A company&rsquo;s client users
        follow the company&rsquo;s own setting.
      </p>
      {error && <Banner variant="error">{errorMessage(error, 'Could not load the rules.')}</Banner>}
      {save.error && <Banner variant="error">{errorMessage(save.error, 'Not saved.')}</Banner>}
      {data ? (
        <ul className="space-y-2">
          {MFA_STAFF_ROLES.map((role) => {
            const rule = data.rules.find((r) => r.role === role)
            return (
              <li key={role} className="flex items-center gap-3 text-sm">
                <Switch
                  label={`Second factor required for ${ROLE_NAMES[role]}`}
                  checked={rule?.required ?? false}
                  disabled={save.isPending}
                  onChange={(required) => save.mutate({ rules: [{ role, required }] })}
                />
                <span>
                  {ROLE_NAMES[role]}
                  {rule?.isDefault ? ' (default)' : ''}
                </span>
              </li>
            )
          })}
        </ul>
      ) : (
        <Spinner label="Loading..." />
      )}
    </TitledSection>
  )
}

/**
 * The company screen: "second factor required" for the company's client users, and whether a
 * second factor its single sign-on provider reports (OIDC `amr`) counts as one.
 */
export function CompanyMfaRule({ companyId }: { companyId: string }) {
  const { data } = useCompanyMfaRule(companyId)
  const save = useSaveCompanyMfaRule(companyId)
  if (!data) return null
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <Switch
          label="Second factor required for this company's users"
          checked={data.required}
          disabled={save.isPending}
          onChange={(required) => save.mutate({ required })}
        />
        <span>Second factor required for this company&rsquo;s users</span>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Switch
          label="Trust the provider's second factor"
          checked={data.trustProviderFactor}
          disabled={save.isPending}
          onChange={(trustProviderFactor) => save.mutate({ required: data.required, trustProviderFactor })}
        />
        <span>
          Trust the provider&rsquo;s second factor
          <span className="block text-slate-600">
            With this company&rsquo;s single sign-on, a second factor the provider reports counts as one here.
          </span>
        </span>
      </div>
      {save.error && <span className="text-red-700">{errorMessage(save.error, 'Not saved.')}</span>}
    </div>
  )
}
