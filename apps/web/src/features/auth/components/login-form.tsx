import type { SecondStep } from '@portal/shared'
import { useEffect, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/api-error'
import { useLogin } from '../api/login'
import { useSsoLookup } from '../api/sso'

/**
 * docs/product-rules.md §2 login screen: texts, fields and states exactly as specified. When the typed e-mail's
 * domain signs in through its company's provider, the screen offers that instead and the
 * password is not needed (it stays for named accounts that keep one).
 */
export function LoginForm({
  onSuccess,
  onSecondStep,
}: {
  onSuccess: () => void
  /** A right password for an account with a second factor (or one it must set up). */
  onSecondStep?: (step: SecondStep) => void
}) {
  const [email, setEmail] = useState('')
  const [typed, setTyped] = useState('')
  const [password, setPassword] = useState('')
  const login = useLogin({ onSuccess, onSecondStep })
  // Asked once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setTyped(email.trim()), 300)
    return () => clearTimeout(timer)
  }, [email])
  const sso = useSsoLookup(typed).data
  // A company's sign-in, or the vendor's staff sign-in for a staff domain.
  const ssoCompany =
    sso?.sso && sso.startPath ? { startPath: sso.startPath, name: sso.companyName ?? 'your company' } : null

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (ssoCompany && !password) return window.location.assign(ssoCompany.startPath)
    login.mutate({ email: email.trim(), password })
  }

  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Welcome Back</h1>
      <p className="mt-1 text-slate-600">Sign in to your account to continue.</p>

      <form className="mt-6 space-y-5" onSubmit={submit}>
        {login.isError && <Banner variant="error">{errorMessage(login.error, 'Login failed')}</Banner>}
        <Input
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          placeholder="Enter your email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Input
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required={!ssoCompany}
          placeholder="Enter your password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {ssoCompany && (
          <a
            href={ssoCompany.startPath}
            className="flex h-11 w-full items-center justify-center rounded-md border border-blue-700 bg-white px-4 text-sm font-semibold text-blue-800 hover:bg-blue-50"
          >
            Continue with {ssoCompany.name} sign-in
          </a>
        )}
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
    </div>
  )
}
