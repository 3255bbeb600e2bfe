import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { ProfilePreferences } from '@/features/alerts/components/profile-preferences'
import { ProfileSecurity, ProfileSessions } from '@/features/auth/components/profile-security'

/**
 * /profile, every role: two-step verification and sessions; the caller's alert mails, digest,
 * time zone and report subscription.
 */
export default function ProfileRoute() {
  const user = useUser()
  return (
    <ContentLayout title="Profile">
      <div className="max-w-3xl space-y-6">
        <p className="text-sm text-slate-600">
          Signed in as <span className="font-medium text-slate-900">{user.email}</span>
        </p>
        <ProfileSecurity />
        <ProfileSessions />
        <ProfilePreferences role={user.role} />
      </div>
    </ContentLayout>
  )
}
