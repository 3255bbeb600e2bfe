import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { SignInTestResult } from '@/components/ui/sign-in-test-result'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useStaffSsoTestResult, useStartStaffSsoTest } from '../api/staff-sso'

/** Sends the admin's browser to the staff provider for a test sign-in that signs nobody in. */
export function StaffTestSignInButton() {
  const start = useStartStaffSsoTest()
  return (
    <>
      <Button
        variant="secondary"
        disabled={start.isPending}
        onClick={() => start.mutate(undefined, { onSuccess: ({ location }) => window.location.assign(location) })}
      >
        {start.isPending ? 'Starting...' : 'Test sign-in'}
      </Button>
      {start.isError && (
        <Banner variant="error">{errorMessage(start.error, 'The test sign-in could not start.')}</Banner>
      )}
    </>
  )
}

/** The staff provider's answer to the admin's test sign-in: its claims, the group claim among them. */
export function StaffTestSignInResult({ flowId }: { flowId: string }) {
  const { data, error, isPending } = useStaffSsoTestResult(flowId)
  if (isPending) return <Spinner label="Loading the test sign-in..." />
  if (error || !data)
    return <Banner variant="error">{errorMessage(error, 'The test sign-in could not be loaded.')}</Banner>
  return <SignInTestResult result={data} />
}
