import type { ReactNode } from 'react'

/** Two panels: a brand panel beside the form on wide screens, stacked below it on narrow ones. */
export function AuthLayout({ aside, children }: { aside: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 lg:flex-row-reverse">
      <main className="flex flex-1 items-center justify-center px-4 py-12 sm:px-8">
        <div className="w-full max-w-md">{children}</div>
      </main>
      <aside className="bg-linear-to-br from-blue-900 to-slate-900 px-6 py-10 text-white sm:px-10 lg:flex lg:w-[45%] lg:items-center lg:px-14">
        {aside}
      </aside>
    </div>
  )
}
