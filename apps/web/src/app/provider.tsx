import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ErrorBoundary } from '@/components/errors/error-boundary'
import { AuthProvider } from '@/features/auth/components/auth-provider'
import { queryClient as defaultQueryClient } from '@/lib/query-client'

function CrashScreen() {
  return (
    <div role="alert" className="mx-auto my-24 max-w-md px-6 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-2 text-slate-600">Please reload the page.</p>
    </div>
  )
}

export function AppProvider({
  children,
  queryClient = defaultQueryClient,
}: {
  children: ReactNode
  queryClient?: QueryClient
}) {
  return (
    <ErrorBoundary fallback={<CrashScreen />}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  )
}
