import { Input } from './input'

type OidcClientField = 'issuer' | 'clientId' | 'clientSecret' | 'scopes'

/**
 * The OpenID Connect client of a sign-in connection (a company's or the staff's): issuer, client
 * id, secret (never shown; empty keeps the saved one) and scopes. `field` binds a field to the form.
 */
export function OidcClientFields({
  field,
  secretSet,
}: {
  field: (name: OidcClientField) => { value: string; onChange: (event: { target: { value: string } }) => void }
  secretSet: boolean
}) {
  return (
    <>
      <Input label="Issuer URL" required placeholder="https://login.example.com" {...field('issuer')} />
      <Input label="Client ID" required {...field('clientId')} />
      <Input
        label="Client secret"
        type="password"
        autoComplete="off"
        placeholder={secretSet ? 'Set (leave empty to keep it)' : 'Not set'}
        {...field('clientSecret')}
      />
      <Input label="Scopes" {...field('scopes')} />
    </>
  )
}
