import { KeyRound } from 'lucide-react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { tokenStorage } from '@/lib/token-storage'
import { passkeyError, passkeysSupported, signInWithPasskey } from '../api/passkeys-api'
import { useAttempt } from '../hooks/use-attempt'

/**
 * Beside the sign-in form (whose texts and fields stay as docs/product-rules.md §2 has them): a
 * passkey alone signs in, since its user verification (PIN, fingerprint, face) is the second
 * factor. Browsers without passkeys do not see it.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const { pending, error, attempt } = useAttempt()
  if (!passkeysSupported()) return null
  const signIn = () =>
    attempt(
      async () => {
        tokenStorage.setSession(await signInWithPasskey())
        onSignedIn()
      },
      (failure) => passkeyError(failure, 'The passkey sign-in failed. Please try again.'),
    )
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
