import { useParams } from 'react-router'
import { AccessDenied } from '@/components/errors/access-denied'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { UserProfile } from '@/features/users/components/user-profile'
import { UserSecurityPanel } from '@/features/auth/components/admin-security'

/** docs/product-decisions.md D9, D8 /admin/users/{id}: an admin page for one user; others see Access Denied. */
export default function UserRoute() {
  const { id = '' } = useParams()
  const user = useUser()
  return (
    <Authorization permission="user.manage" forbidden={<AccessDenied />}>
      <UserProfile key={id} id={id} currentUserId={user.id} />
      {/* Second factors and sessions of the user: the reset for a lost phone, end all sessions. */}
      <div className="mx-auto mt-6 w-full max-w-5xl">
        <UserSecurityPanel key={id} userId={id} />
      </div>
    </Authorization>
  )
}
