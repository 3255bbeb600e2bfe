import {
  PASSWORD_LENGTH_MESSAGE,
  companyIdForRole,
  ownCompanyOnly,
  userFormError,
  tooLongMessage,
  USER_EMAIL_MAX,
  USERNAME_MAX,
  type CreateUser,
  type Destination,
  type Role,
} from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { FormActions } from '@/components/ui/form-actions'
import { Field, SelectOptions, controlClass } from '@/components/ui/field'
import { errorMessage } from '@/lib/api-error'
import type { User } from '@/types/api'
import { useSaveUser } from '../api/save-user'
import { ROLE_OPTIONS } from './user-badges'

type Values = { email: string; username: string; password: string; role: Role; companyId: string }

const valuesOf = (user: User | null): Values => ({
  email: user?.email ?? '',
  username: user?.username ?? '',
  password: '',
  // docs/product-rules.md §9: a new user form starts with role client.
  role: user?.role ?? 'client',
  companyId: user?.companyId ?? '',
})

/** docs/product-rules.md §2 Settings: Create New User / Edit User. A blank New Password keeps the current one. */
export function UserForm({
  user,
  destinations,
  onCancel,
  onSaved,
}: {
  user: User | null
  destinations: readonly Destination[]
  onCancel: () => void
  onSaved: () => void
}) {
  const creating = user === null
  const [values, setValues] = useState<Values>(() => valuesOf(user))
  const [error, setError] = useState<string | null>(null)
  const save = useSaveUser()
  const set = (changes: Partial<Values>) => setValues((current) => ({ ...current, ...changes }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // docs/product-rules.md §5: the same checks the server runs (packages/shared userFormError).
    // Over-long text is refused rather than cut by the field (a cut email would be another address).
    const tooLong =
      tooLongMessage('Email', values.email.trim(), USER_EMAIL_MAX) ??
      tooLongMessage('Username', values.username.trim(), USERNAME_MAX)
    if (tooLong) return setError(tooLong)
    const invalid = userFormError(values, { creating })
    if (invalid) return setError(invalid.message)
    setError(null)
    const companyId = companyIdForRole(values.role, values.companyId)
    const body: CreateUser = {
      email: values.email.trim(),
      username: values.username.trim() || null,
      role: values.role,
      destinationId: companyId,
      companyId,
      ...(values.password ? { password: values.password } : {}),
    }
    save.mutate(creating ? { id: null, body } : { id: user.id, body }, {
      onSuccess: onSaved,
      onError: (failure) =>
        setError(errorMessage(failure, creating ? 'Failed to create user.' : 'Failed to update user.')),
    })
  }

  const title = creating ? 'Create New User' : 'Edit User'
  return (
    <form
      noValidate
      aria-labelledby="user-form-title"
      onSubmit={submit}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h3 id="user-form-title" className="text-lg font-semibold text-slate-900">
        {title}
      </h3>
      {error && <Banner variant="error">{error}</Banner>}
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Email" required>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={(e) => set({ email: e.target.value })}
              className={controlClass}
            />
          )}
        </Field>
        <Field label="Username">
          {(control) => (
            <input
              {...control}
              placeholder="Optional"
              value={values.username}
              onChange={(e) => set({ username: e.target.value })}
              className={controlClass}
            />
          )}
        </Field>
        <Field
          label={creating ? 'Password' : 'New Password'}
          required={creating}
          hint={
            creating ? (
              PASSWORD_LENGTH_MESSAGE
            ) : (
              <>
                {/* docs/product-rules.md §2's hint word for word; the length rule (docs/product-decisions.md D15) on its own line. */}
                Only enter a value if you want to change the user&apos;s password.
                <span className="mt-0.5 block">{PASSWORD_LENGTH_MESSAGE}</span>
              </>
            )
          }
        >
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              placeholder={creating ? undefined : 'Leave blank to keep current password'}
              value={values.password}
              onChange={(e) => set({ password: e.target.value })}
              className={controlClass}
            />
          )}
        </Field>
        <Field label="Role" required>
          {(control) => (
            <select
              {...control}
              value={values.role}
              onChange={(e) => set({ role: e.target.value as Role })}
              className={controlClass}
            >
              <SelectOptions options={ROLE_OPTIONS} />
            </select>
          )}
        </Field>
        {ownCompanyOnly(values.role) && (
          <Field
            label="Client"
            required
            hint={
              <>
                This will determine which dispatches and registrations the user can access.
                <span className="mt-0.5 block">{`${destinations.length} clients available`}</span>
              </>
            }
          >
            {(control) => (
              <select
                {...control}
                value={values.companyId}
                disabled={destinations.length === 0 && !values.companyId}
                onChange={(e) => set({ companyId: e.target.value })}
                className={controlClass}
              >
                <option value="">{destinations.length === 0 ? 'No clients available' : 'Select a client'}</option>
                {/* A client whose company is not (or no longer) in the list keeps it selectable. */}
                {values.companyId && !destinations.some((d) => d.id === values.companyId) && (
                  <option value={values.companyId}>{user?.destinationName ?? values.companyId}</option>
                )}
                <SelectOptions options={destinations.map((d) => ({ value: d.id, label: d.name }))} />
              </select>
            )}
          </Field>
        )}
      </div>
      <FormActions busy={save.isPending} onCancel={onCancel} submitLabel={creating ? 'Create User' : 'Update User'} />
    </form>
  )
}
