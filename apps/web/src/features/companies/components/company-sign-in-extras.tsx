import type { CompanyUser, SsoPasswordUser } from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { LoadedSignInTestResult, SignInTestButton } from '@/components/ui/sign-in-test-result'
import { errorMessage } from '@/lib/api-error'
import { useSavePasswordUsers, useSsoTestResult, useStartSsoTest } from '../api/sso-settings'

/**
 * "Single sign-on required" with exceptions: the company's users an admin lets keep their
 * password (a contractor without an account at the company's provider).
 */
export function PasswordUsersForm({
  companyId,
  users,
  allowed,
  ssoRequired,
}: {
  companyId: string
  users: CompanyUser[]
  allowed: SsoPasswordUser[]
  ssoRequired: boolean
}) {
  const [chosen, setChosen] = useState(() => new Set(allowed.map((u) => u.id)))
  const save = useSavePasswordUsers(companyId)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate([...chosen])
  }
  const toggle = (id: string) => {
    const next = new Set(chosen)
    if (!next.delete(id)) next.add(id)
    setChosen(next)
  }
  return (
    <section aria-labelledby="sso-password-users-title" className="space-y-3">
      <h2 id="sso-password-users-title" className="text-lg font-semibold text-slate-900">
        Users who keep a password
      </h2>
      <p className="max-w-2xl text-sm text-slate-600">
        {ssoRequired
          ? 'Single sign-on is required: only the users ticked here may still sign in with their password (for example a contractor without an account at the company’s provider).'
          : 'Applies when single sign-on is required: the users ticked here may still sign in with their password.'}
      </p>
      {users.length === 0 ? (
        <p className="text-sm text-slate-600">This company has no users yet.</p>
      ) : (
        <form className="max-w-2xl space-y-3" onSubmit={submit}>
          <fieldset className="space-y-2">
            <legend className="sr-only">Users who may sign in with a password</legend>
            {users.map((user) => (
              <label key={user.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={chosen.has(user.id)}
                  onChange={() => toggle(user.id)}
                />
                <span>
                  {user.name} <span className="text-slate-600">({user.email})</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Button type="submit" disabled={save.isPending}>
            Save password users
          </Button>
        </form>
      )}
      {save.isError && <Banner variant="error">{errorMessage(save.error, 'The list was not saved.')}</Banner>}
      {save.isSuccess && <Banner variant="success">Password users saved.</Banner>}
    </section>
  )
}

/** Sends the admin's browser to the company's provider for a test sign-in that signs nobody in. */
export function TestSignInButton({ companyId }: { companyId: string }) {
  return <SignInTestButton start={useStartSsoTest(companyId)} />
}

/** What the provider sent in the admin's test sign-in (claims or attributes, never a token). */
export function TestSignInResult({ companyId, flowId }: { companyId: string; flowId: string }) {
  return <LoadedSignInTestResult query={useSsoTestResult(companyId, flowId)} />
}
