import { ShieldAlert } from 'lucide-react'

/** docs/product-decisions.md D8: admin screens answer roles without access with this text (docs/product-rules.md §2). */
export function AccessDenied() {
  return (
    <section className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
      <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-red-700" />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">Access Denied</h1>
      <p className="mt-2 text-slate-600">You don&apos;t have permission to view this page.</p>
    </section>
  )
}
