import { useState } from 'react'
import { KeyRound } from 'lucide-react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { tokenStorage } from '@/lib/token-storage'
import { passkeyError, passkeysSupported, signInWithPasskey } from '../api/passkeys-api'

/**
 * Beside the sign-in form (whose texts and fields stay as docs/product-rules.md §2 has them): a
 * passkey alone signs in, since its user verification (PIN, fingerprint, face) is the second
 * factor. Browsers without passkeys do not see it.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!passkeysSupported()) return null
  const signIn = async () => {
    setPending(true)
    setError(null)
    try {
      tokenStorage.setSession(await signInWithPasskey())
      onSignedIn()
    } catch (failure) {
      setError(passkeyError(failure, 'The passkey sign-in failed. Please try again.'))
      setPending(false)
    }
  }
  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:px-8">
      {error && (
        <Banner variant="error" className="mb-3">
          {error}
        </Banner>
      )}
      <Button variant="secondary" size="lg" className="w-full" disabled={pending} onClick={() => void signIn()}>
        <KeyRound aria-hidden="true" className="mr-2 size-4" />
        {pending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
    </div>
  )
}
