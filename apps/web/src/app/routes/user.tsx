import { useParams } from 'react-router'
import { PageSection, PermittedPage } from '@/app/permitted-page'
import { UserProfile } from '@/features/users/components/user-profile'
import { UserSecurityPanel } from '@/features/auth/components/admin-security'

/** docs/product-decisions.md D9, D8 /admin/users/{id}: an admin page for one user; others see Access Denied. */
export default function UserRoute() {
  const { id = '' } = useParams()
  // Another user's page starts afresh: its forms and queries are the new user's.
  return (
    <PermittedPage key={id} permission="user.manage">
      {(user) => (
        <>
          <UserProfile id={id} currentUserId={user.id} />
          {/* Second factors and sessions of the user: the reset for a lost phone, end all sessions. */}
          <PageSection wide={false}>
            <UserSecurityPanel userId={id} />
          </PageSection>
        </>
      )}
    </PermittedPage>
  )
}
