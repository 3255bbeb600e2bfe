import type { ReactNode } from 'react'

const TONES = {
  amber: 'mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950',
  blue: 'mt-4 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950',
}

/** A demo-mode box under the sign-in form, named by its heading. */
export function DemoBox({
  id,
  title,
  tone,
  children,
}: {
  id: string
  title: ReactNode
  tone: keyof typeof TONES
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={TONES[tone]}>
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** Demo accounts to sign in with: each e-mail, then what `children` says of the account. */
export function DemoAccountList<T extends { email: string }>({
  accounts,
  children,
}: {
  accounts: readonly T[]
  children: (account: T) => ReactNode
}) {
  return (
    <ul className="mt-2 space-y-1">
      {accounts.map((account) => (
        <li key={account.email} className="flex flex-wrap justify-between gap-x-3">
          <span className="font-mono break-all">{account.email}</span>
          {children(account)}
        </li>
      ))}
    </ul>
  )
}
