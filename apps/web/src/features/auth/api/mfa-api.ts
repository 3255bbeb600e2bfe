import type {
  EndedSessions,
  EnrolComplete,
  FactorAdded,
  MfaCompanyRule,
  MfaCompanyRuleBody,
  MfaRoleRules,
  MfaRoleRulesBody,
  MfaStatus,
  RecoveryCodes,
  SecondStep,
  SessionInfo,
  SessionResponse,
  TotpEnrolment,
  UserMfa,
} from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, parseSession } from '@/lib/api-client'

/** A sign-in answer: the session, or the second step (a factor, or a required enrolment) first. */
export type SignInAnswer =
  { session: SessionResponse; secondStep?: never } | { secondStep: SecondStep; session?: never }

export function readSignInAnswer(data: unknown): SignInAnswer {
  const step = (data as { secondStep?: SecondStep } | null)?.secondStep
  if (step && typeof step.token === 'string') return { secondStep: step }
  return { session: parseSession(data) }
}

// ---- the second step (public: the step token is in the body) ----
export const verifyTotp = async (token: string, code: string) =>
  parseSession(await api.post<unknown>('/api/auth/mfa/totp', { token, code }, { public: true }))
export const verifyRecoveryCode = async (token: string, code: string) =>
  parseSession(await api.post<unknown>('/api/auth/mfa/recovery', { token, code }, { public: true }))
export const startRequiredEnrolment = (token: string) =>
  api.post<TotpEnrolment>('/api/auth/mfa/enrol/totp', { token }, { public: true })
export async function confirmRequiredEnrolment(token: string, factorId: string, code: string) {
  const answer = await api.post<EnrolComplete>(
    '/api/auth/mfa/enrol/totp/confirm',
    { token, factorId, code },
    { public: true },
  )
  return { session: parseSession(answer), recoveryCodes: answer.recoveryCodes }
}

// ---- Profile ----
const keys = {
  security: ['profile', 'security'] as const,
  sessions: ['profile', 'sessions'] as const,
  userMfa: (id: string) => ['users', id, 'mfa'] as const,
  rules: ['admin', 'mfa-rules'] as const,
  companyRule: (id: string) => ['admin', 'companies', id, 'mfa'] as const,
}

export const useMfaStatus = () =>
  useQuery({ queryKey: keys.security, queryFn: () => api.get<MfaStatus>('/api/profile/security') })
export const useSessions = () =>
  useQuery({ queryKey: keys.sessions, queryFn: () => api.get<SessionInfo[]>('/api/profile/sessions') })

export const startTotp = () => api.post<TotpEnrolment>('/api/profile/mfa/totp')
export const confirmTotp = (factorId: string, code: string, name: string) =>
  api.post<FactorAdded>(`/api/profile/mfa/totp/${encodeURIComponent(factorId)}/confirm`, { code, name })

export function useProfileSecurityMutations() {
  const client = useQueryClient()
  const refresh = () => client.invalidateQueries({ queryKey: ['profile'] })
  return {
    removeFactor: useMutation({
      mutationFn: (id: string) => api.delete(`/api/profile/mfa/factors/${encodeURIComponent(id)}`),
      onSuccess: refresh,
    }),
    regenerate: useMutation({
      mutationFn: () => api.post<RecoveryCodes>('/api/profile/mfa/recovery-codes'),
      onSuccess: refresh,
    }),
    endSession: useMutation({
      mutationFn: (id: string) => api.delete(`/api/profile/sessions/${encodeURIComponent(id)}`),
      onSuccess: refresh,
    }),
    endOthers: useMutation({
      mutationFn: () => api.post<EndedSessions>('/api/profile/sessions/end-others'),
      onSuccess: refresh,
    }),
    refresh,
  }
}

// ---- admins ----
export const useUserMfa = (userId: string) =>
  useQuery({
    queryKey: keys.userMfa(userId),
    queryFn: () => api.get<UserMfa>(`/api/users/${encodeURIComponent(userId)}/mfa`),
  })

export function useUserMfaMutations(userId: string) {
  const client = useQueryClient()
  const refresh = () => client.invalidateQueries({ queryKey: keys.userMfa(userId) })
  return {
    reset: useMutation({
      mutationFn: () => api.delete(`/api/users/${encodeURIComponent(userId)}/mfa`),
      onSuccess: refresh,
    }),
    endSessions: useMutation({
      mutationFn: () => api.delete<EndedSessions>(`/api/users/${encodeURIComponent(userId)}/sessions`),
      onSuccess: refresh,
    }),
  }
}

export const useMfaRoleRules = () =>
  useQuery({ queryKey: keys.rules, queryFn: () => api.get<MfaRoleRules>('/api/admin/mfa/rules') })
export function useSaveMfaRoleRules() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: MfaRoleRulesBody) => api.put<MfaRoleRules>('/api/admin/mfa/rules', body),
    onSuccess: (data) => client.setQueryData(keys.rules, data),
  })
}

export const useCompanyMfaRule = (companyId: string) =>
  useQuery({
    queryKey: keys.companyRule(companyId),
    queryFn: () => api.get<MfaCompanyRule>(`/api/admin/companies/${encodeURIComponent(companyId)}/mfa`),
  })
export function useSaveCompanyMfaRule(companyId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: MfaCompanyRuleBody) =>
      api.put<MfaCompanyRule>(`/api/admin/companies/${encodeURIComponent(companyId)}/mfa`, body),
    onSuccess: (data) => client.setQueryData(keys.companyRule(companyId), data),
  })
}
