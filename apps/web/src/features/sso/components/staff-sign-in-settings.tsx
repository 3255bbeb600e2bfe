import { SSO_DEFAULT_SCOPES, STAFF_SSO_ROLES, type StaffRoleMapping, type StaffSsoSettings } from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { DomainsForm } from '@/components/ui/domains-form'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useSaveStaffDomains, useSaveStaffRoles, useSaveStaffSso, useStaffSso, useTestStaffSso } from '../api/staff-sso'
import { StaffTestSignInButton, StaffTestSignInResult } from './staff-test-sign-in'
import { OidcClientFields } from '@/components/ui/oidc-client-fields'

const ROLE_OPTIONS = STAFF_SSO_ROLES.map((role) => ({ value: role, label: role[0]!.toUpperCase() + role.slice(1) }))

/**
 * Settings (admin): the vendor's staff sign-in through the vendor's own OIDC provider, the staff
 * e-mail domains, and which group or role claim value gives which role.
 */
export function StaffSignInSettings() {
  const { data, error, isPending } = useStaffSso()
  // Held here so the outcome survives the forms' reset to each saved version.
  const save = useSaveStaffSso()
  // A test sign-in comes back to Settings with its id: what the provider sent is shown here.
  const testFlowId = useSearchParams()[0].get('sso_test')
  if (isPending) return <Spinner label="Loading staff sign-in..." />
  if (error || !data) return <Banner variant="error">{errorMessage(error, 'Could not load the staff sign-in.')}</Banner>
  return (
    <section aria-labelledby="staff-sso-title" className="space-y-6">
      <h2 id="staff-sso-title" className="text-lg font-semibold text-slate-900">
        Staff sign-in
      </h2>
      {testFlowId && <StaffTestSignInResult flowId={testFlowId} />}
      <StaffConnectionForm key={data.connection?.updatedAt ?? 'new'} settings={data} save={save} />
      <StaffDomainsForm key={data.domains.join(',')} domains={data.domains} />
      <RoleMappingForm key={JSON.stringify(data.roles)} roles={data.roles} />
    </section>
  )
}

function StaffConnectionForm({
  settings,
  save,
}: {
  settings: StaffSsoSettings
  save: ReturnType<typeof useSaveStaffSso>
}) {
  const c = settings.connection
  const [form, setForm] = useState({
    displayName: c?.displayName ?? '',
    issuer: c?.oidc.issuer ?? '',
    clientId: c?.oidc.clientId ?? '',
    clientSecret: '',
    scopes: c?.oidc.scopes ?? SSO_DEFAULT_SCOPES,
    roleClaim: c?.roleClaim ?? 'groups',
  })
  const test = useTestStaffSso()
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate({ ...form, clientSecret: form.clientSecret || undefined })
  }
  return (
    <form className="grid max-w-2xl gap-4" onSubmit={submit}>
      <p className="text-sm text-slate-600">
        The vendor&rsquo;s staff sign in through the vendor&rsquo;s OpenID Connect provider; their role follows the
        provider&rsquo;s group claim at each sign-in. Redirect URI to register:{' '}
        <span className="font-mono break-all">{settings.redirectUri}</span>
      </p>
      {save.isError && <Banner variant="error">{errorMessage(save.error, 'The connection was not saved.')}</Banner>}
      {save.isSuccess && <Banner variant="success">Staff connection saved.</Banner>}
      <Input label="Name on the sign-in screen" required placeholder="Acme" {...field('displayName')} />
      <OidcClientFields field={field} secretSet={c?.oidc.clientSecretSet ?? false} />
      <Input label="Group or role claim" {...field('roleClaim')} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save staff connection'}
        </Button>
        {c && (
          <Button variant="secondary" onClick={() => test.mutate()} disabled={test.isPending}>
            {test.isPending ? 'Testing...' : 'Test connection'}
          </Button>
        )}
        {c && <StaffTestSignInButton />}
      </div>
      {test.data && (
        <p role="status" className={test.data.ok ? 'text-sm text-green-800' : 'text-sm text-red-800'}>
          {test.data.message}
        </p>
      )}
    </form>
  )
}

function StaffDomainsForm({ domains }: { domains: string[] }) {
  const save = useSaveStaffDomains()
  return (
    <DomainsForm
      domains={domains}
      label="Staff e-mail domains"
      placeholder="vendor.com"
      submitLabel="Save staff domains"
      save={save}
    />
  )
}

function RoleMappingForm({ roles }: { roles: StaffRoleMapping[] }) {
  const [rows, setRows] = useState<StaffRoleMapping[]>(roles)
  const save = useSaveStaffRoles()
  const change = (index: number, next: Partial<StaffRoleMapping>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...next } : row)))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate(rows)
  }
  return (
    <form className="max-w-2xl space-y-3" onSubmit={submit} aria-label="Role mapping">
      <h3 className="font-semibold text-slate-900">Role mapping</h3>
      <p className="text-sm text-slate-600">
        A staff member gets the role of the first matching value (admin before internal before sales). Nobody without a
        matching value can sign in.
      </p>
      {save.isError && <Banner variant="error">{errorMessage(save.error, 'The mapping was not saved.')}</Banner>}
      {rows.map((row, index) => (
        <div key={index} className="flex flex-wrap items-end gap-2">
          <div className="min-w-56 flex-1">
            <Input
              label={`Claim value ${index + 1}`}
              value={row.claimValue}
              onChange={(e) => change(index, { claimValue: e.target.value })}
            />
          </div>
          <Select
            label={`Role ${index + 1}`}
            options={ROLE_OPTIONS}
            value={row.role}
            onChange={(e) => change(index, { role: e.target.value as StaffRoleMapping['role'] })}
          />
          <Button variant="ghost" onClick={() => setRows(rows.filter((_, i) => i !== index))}>
            Remove
          </Button>
        </div>
      ))}
      <div className="flex gap-2">
        <Button variant="secondary" onClick={() => setRows([...rows, { claimValue: '', role: 'internal' }])}>
          Add mapping
        </Button>
        <Button type="submit" disabled={save.isPending}>
          Save role mapping
        </Button>
      </div>
    </form>
  )
}
