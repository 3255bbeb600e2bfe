import type { LoginBody } from '@portal/shared'
import { useMutation } from '@tanstack/react-query'
import { api, parseSession } from '@/lib/api-client'
import { tokenStorage } from '@/lib/token-storage'
import type { SessionResponse } from '@/types/api'

export async function loginWithEmailAndPassword(body: LoginBody): Promise<SessionResponse> {
  return parseSession(await api.post<unknown>('/api/auth/login', body, { public: true }))
}

/** docs/product-rules.md §4: a successful login stores the access token, refresh token and user. */
export function useLogin(options: { onSuccess?: (session: SessionResponse) => void } = {}) {
  return useMutation({
    mutationFn: loginWithEmailAndPassword,
    onSuccess: (session) => {
      tokenStorage.setSession(session)
      options.onSuccess?.(session)
    },
  })
}
