import {
  ownCompanyOnly,
  SAML_METADATA_MAX_CHARS,
  SSO_DEFAULT_SCOPES,
  type CompanyUser,
  type SsoProtocol,
  type SsoSettings,
} from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { DomainsForm } from '@/components/ui/domains-form'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api-error'
import {
  useRemoveSsoConnection,
  useSaveSsoConnection,
  useSaveSsoDomains,
  useSsoSettings,
  useTestSsoConnection,
} from '../api/sso-settings'
import { PasswordUsersForm, TestSignInButton, TestSignInResult } from './company-sign-in-extras'
import { TitledSection } from '@/components/ui/card-section'
import { OidcClientFields } from '@/components/ui/oidc-client-fields'

/**
 * The company's "Sign-in" tab (admin): its OIDC or SAML connection, rules, e-mail domains, the
 * users who keep a password, and tests (`testFlowId`: a test sign-in the provider sent back).
 */
export function CompanySignIn({
  companyId,
  users = [],
  testFlowId = null,
}: {
  companyId: string
  users?: CompanyUser[]
  testFlowId?: string | null
}) {
  const { data, error, isPending } = useSsoSettings(companyId)
  // Held here: the form below starts afresh from each saved version, the save's outcome stays.
  const save = useSaveSsoConnection(companyId)
  if (isPending) return <Spinner label="Loading sign-in settings..." />
  if (error || !data)
    return <Banner variant="error">{errorMessage(error, 'Could not load the sign-in settings.')}</Banner>
  return (
    <div className="space-y-8">
      {testFlowId && <TestSignInResult companyId={companyId} flowId={testFlowId} />}
      <ConnectionForm key={data.connection?.updatedAt ?? 'new'} companyId={companyId} settings={data} save={save} />
      <CompanyDomains key={data.domains.join(',')} companyId={companyId} domains={data.domains} />
      {data.connection && (
        <PasswordUsersForm
          companyId={companyId}
          users={users.filter((u) => ownCompanyOnly(u.role))}
          allowed={data.passwordUsers}
          ssoRequired={data.connection.ssoRequired}
        />
      )}
    </div>
  )
}

const PROTOCOLS = [
  { value: 'oidc', label: 'OpenID Connect' },
  { value: 'saml', label: 'SAML 2.0' },
] as const

function ConnectionForm({
  companyId,
  settings,
  save,
}: {
  companyId: string
  settings: SsoSettings
  save: ReturnType<typeof useSaveSsoConnection>
}) {
  const oidc = settings.connection?.oidc
  const saml = settings.connection?.saml
  const [protocol, setProtocol] = useState<SsoProtocol>(settings.connection?.protocol ?? 'oidc')
  const [samlForm, setSamlForm] = useState({
    metadataXml: '',
    metadataUrl: saml?.metadataUrl ?? '',
    emailAttribute: saml?.emailAttribute ?? 'email',
    nameAttribute: saml?.nameAttribute ?? 'name',
  })
  const [allowUnsolicited, setAllowUnsolicited] = useState(saml?.allowUnsolicited ?? false)
  const [form, setForm] = useState({
    issuer: oidc?.issuer ?? '',
    clientId: oidc?.clientId ?? '',
    clientSecret: '',
    scopes: oidc?.scopes ?? SSO_DEFAULT_SCOPES,
    emailClaim: oidc?.emailClaim ?? 'email',
    nameClaim: oidc?.nameClaim ?? 'name',
  })
  const [ssoRequired, setSsoRequired] = useState(settings.connection?.ssoRequired ?? false)
  const [createUsers, setCreateUsers] = useState(settings.connection?.createUsers ?? false)
  const remove = useRemoveSsoConnection(companyId)
  const test = useTestSsoConnection(companyId)
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  })

  const samlField = (name: keyof typeof samlForm) => ({
    value: samlForm[name],
    onChange: (event: { target: { value: string } }) => setSamlForm({ ...samlForm, [name]: event.target.value }),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (protocol === 'saml') {
      const xml = samlForm.metadataXml.trim()
      save.mutate({
        protocol: 'saml',
        // Pasted XML wins; else the URL is fetched on save; neither keeps the stored metadata.
        metadataXml: xml || undefined,
        metadataUrl: xml ? undefined : samlForm.metadataUrl.trim() || undefined,
        emailAttribute: samlForm.emailAttribute,
        nameAttribute: samlForm.nameAttribute,
        allowUnsolicited,
        ssoRequired,
        createUsers,
      })
      return
    }
    save.mutate({
      protocol: 'oidc',
      ...form,
      // Left empty: the stored secret stays (it is never shown again).
      clientSecret: form.clientSecret || undefined,
      ssoRequired,
      createUsers,
    })
  }

  return (
    <section aria-labelledby="sso-connection-title" className="space-y-4">
      <h2 id="sso-connection-title" className="text-lg font-semibold text-slate-900">
        Single sign-on
      </h2>
      <form className="grid max-w-2xl gap-4" onSubmit={submit}>
        {save.isError && <Banner variant="error">{errorMessage(save.error, 'The connection was not saved.')}</Banner>}
        {save.isSuccess && <Banner variant="success">Connection saved.</Banner>}
        <Select
          label="Protocol"
          options={PROTOCOLS}
          value={protocol}
          onChange={(event) => setProtocol(event.target.value as SsoProtocol)}
        />
        {protocol === 'oidc' ? (
          <>
            <p className="text-sm text-slate-600">
              Register this address at the company&rsquo;s provider as the redirect URI:{' '}
              <span className="font-mono break-all">{settings.redirectUri}</span>
            </p>
            <OidcClientFields field={field} secretSet={oidc?.clientSecretSet ?? false} />
            <Input label="E-mail claim" {...field('emailClaim')} />
            <Input label="Name claim" {...field('nameClaim')} />
          </>
        ) : (
          <>
            <div className="space-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
              <p className="text-slate-700">For the identity provider&rsquo;s administrator:</p>
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
                <dt className="text-slate-600">Entity ID</dt>
                <dd className="font-mono break-all text-slate-900">{settings.saml.entityId}</dd>
                <dt className="text-slate-600">ACS URL</dt>
                <dd className="font-mono break-all text-slate-900">{settings.saml.acsUrl}</dd>
              </dl>
              <a className="font-medium text-blue-700 underline" href={settings.saml.metadataUrl} download>
                Download SP metadata
              </a>
            </div>
            {saml && (
              <p className="text-sm text-slate-700">
                Identity provider: <span className="font-mono break-all">{saml.idpEntityId}</span>
                {saml.certificates.map((c) => (
                  <span key={c.subject + c.notAfter} className="block">
                    Signing certificate {c.subject}, expires {c.notAfter.slice(0, 10)}
                  </span>
                ))}
              </p>
            )}
            <Textarea
              label="IdP metadata XML"
              hint={saml ? 'Leave empty to keep the stored metadata (or to fetch it again from the URL).' : undefined}
              limit={SAML_METADATA_MAX_CHARS}
              rows={6}
              {...samlField('metadataXml')}
            />
            <Input
              label="IdP metadata URL"
              placeholder="https://idp.example.com/metadata"
              {...samlField('metadataUrl')}
            />
            <Input label="E-mail attribute" {...samlField('emailAttribute')} />
            <Input label="Name attribute" {...samlField('nameAttribute')} />
            <div className="flex items-center gap-3">
              <Switch label="Accept IdP-initiated sign-in" checked={allowUnsolicited} onChange={setAllowUnsolicited} />
              <span className="text-sm text-slate-800">
                Accept IdP-initiated sign-in (responses this portal did not ask for)
              </span>
            </div>
          </>
        )}
        <div className="flex items-center gap-3">
          <Switch label="Single sign-on required" checked={ssoRequired} onChange={setSsoRequired} />
          <span className="text-sm text-slate-800">
            Single sign-on required (the company&rsquo;s users cannot sign in with a password)
          </span>
        </div>
        <div className="flex items-center gap-3">
          <Switch label="Create users on first sign-in" checked={createUsers} onChange={setCreateUsers} />
          <span className="text-sm text-slate-800">Create users on first sign-in</span>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save connection'}
          </Button>
          {settings.connection && (
            <>
              <Button variant="secondary" onClick={() => test.mutate()} disabled={test.isPending}>
                {test.isPending ? 'Testing...' : 'Test connection'}
              </Button>
              <TestSignInButton companyId={companyId} />
              <Button variant="ghost" onClick={() => remove.mutate()} disabled={remove.isPending}>
                Remove connection
              </Button>
            </>
          )}
        </div>
      </form>
      {test.data && (
        <div role="status" className="max-w-2xl space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
          <p className={test.data.ok ? 'font-medium text-green-800' : 'font-medium text-red-800'}>
            {test.data.message}
          </p>
          {test.data.ok && test.data.idpEntityId && (
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-slate-600">IdP entity ID</dt>
              <dd className="font-mono break-all text-slate-900">{test.data.idpEntityId}</dd>
              <dt className="text-slate-600">Sign-in URL</dt>
              <dd className="font-mono break-all text-slate-900">{test.data.ssoUrl}</dd>
              {test.data.certificates?.map((c) => (
                <div key={c.subject + c.notAfter} className="contents">
                  <dt className="text-slate-600">Certificate expires</dt>
                  <dd className="font-mono break-all text-slate-900">
                    {c.notAfter.slice(0, 10)} ({c.subject})
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {test.data.ok && test.data.issuer && (
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              {(
                [
                  ['Issuer', test.data.issuer],
                  ['Authorization endpoint', test.data.authorizationEndpoint],
                  ['Token endpoint', test.data.tokenEndpoint],
                  ['Keys (JWKS)', test.data.jwksUri],
                  ['End-session endpoint', test.data.endSessionEndpoint ?? 'none'],
                  ['Signing algorithms', test.data.signingAlgorithms?.join(', ')],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="font-mono break-all text-slate-900">{value ?? '—'}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      )}
    </section>
  )
}

function CompanyDomains({ companyId, domains }: { companyId: string; domains: string[] }) {
  const save = useSaveSsoDomains(companyId)
  return (
    <TitledSection id="sso-domains-title" title="E-mail domains" className="space-y-3">
      <p className="text-sm text-slate-600">
        People whose e-mail ends in one of these domains are offered this company&rsquo;s sign-in. A domain belongs to
        one company only.
      </p>
      <DomainsForm
        domains={domains}
        label="Domains"
        placeholder="example.com, example.org"
        submitLabel="Save domains"
        save={save}
      />
      {save.isSuccess && <Banner variant="success">Domains saved.</Banner>}
    </TitledSection>
  )
}
