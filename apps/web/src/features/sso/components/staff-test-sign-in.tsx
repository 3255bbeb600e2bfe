import { LoadedSignInTestResult, SignInTestButton } from '@/components/ui/sign-in-test-result'
import { useStaffSsoTestResult, useStartStaffSsoTest } from '../api/staff-sso'

/** Sends the admin's browser to the staff provider for a test sign-in that signs nobody in. */
export function StaffTestSignInButton() {
  return <SignInTestButton start={useStartStaffSsoTest()} />
}

/** The staff provider's answer to the admin's test sign-in: its claims, the group claim among them. */
export function StaffTestSignInResult({ flowId }: { flowId: string }) {
  return <LoadedSignInTestResult query={useStaffSsoTestResult(flowId)} />
}
