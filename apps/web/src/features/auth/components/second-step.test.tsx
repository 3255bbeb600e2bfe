import type { SecondStep as Step } from '@portal/shared'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PasskeySignIn } from './passkey-sign-in'
import { SecondStep } from './second-step'

const step = (methods: Step['methods']): Step => ({
  token: 'step-token',
  kind: 'verify',
  methods,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
})

describe('the second step with a passkey', () => {
  it('offers the passkey first when the account has no authenticator app, and a recovery code instead', async () => {
    const user = userEvent.setup()
    render(<SecondStep step={step(['passkey', 'recovery'])} onSignedIn={vi.fn()} onCancel={vi.fn()} />)
    expect(screen.getByText('Use one of your passkeys to finish signing in.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Use passkey' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Use your authenticator app' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }))
    expect(screen.getByLabelText('Recovery code')).toBeRequired()
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeInTheDocument()
  })

  it('asks for the app code first when the account has both, with the passkey one click away', async () => {
    const user = userEvent.setup()
    render(<SecondStep step={step(['totp', 'passkey', 'recovery'])} onSignedIn={vi.fn()} onCancel={vi.fn()} />)
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }))
    expect(screen.getByRole('button', { name: 'Use passkey' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Use your authenticator app' })).toBeInTheDocument()
  })
})

describe('signing in with a passkey', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('is offered only where the browser has passkeys', () => {
    const { unmount } = render(<PasskeySignIn onSignedIn={vi.fn()} />)
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument()
    unmount()
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
    render(<PasskeySignIn onSignedIn={vi.fn()} />)
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeInTheDocument()
  })
})
