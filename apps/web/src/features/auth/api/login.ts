import type { LoginBody, SecondStep } from '@portal/shared'
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { tokenStorage } from '@/lib/token-storage'
import type { SessionResponse } from '@/types/api'
import { readSignInAnswer, type SignInAnswer } from './mfa-api'

export async function loginWithEmailAndPassword(body: LoginBody): Promise<SignInAnswer> {
  return readSignInAnswer(await api.post<unknown>('/api/auth/login', body, { public: true }))
}

/**
 * docs/product-rules.md §4: a successful login stores the access token, refresh token and user.
 * An account with a second factor (or one it must set up) gets the second step first, and no
 * tokens yet.
 */
export function useLogin(
  options: { onSuccess?: (session: SessionResponse) => void; onSecondStep?: (step: SecondStep) => void } = {},
) {
  return useMutation({
    mutationFn: loginWithEmailAndPassword,
    onSuccess: (answer) => {
      if (answer.secondStep) return options.onSecondStep?.(answer.secondStep)
      tokenStorage.setSession(answer.session)
      options.onSuccess?.(answer.session)
    },
  })
}
