import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/api-error'
import { useLogin } from '../api/login'

/** SPEC §2 login screen: texts, fields and states exactly as specified. */
export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const login = useLogin({ onSuccess })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
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
          required
          placeholder="Enter your password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
    </div>
  )
}
