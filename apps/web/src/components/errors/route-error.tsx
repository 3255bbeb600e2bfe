import { useRouteError } from 'react-router'
import { Button } from '@/components/ui/button'

/** Shown when a screen crashes or its code fails to load (e.g. after a deploy replaced the chunks). */
export function RouteError() {
  const error = useRouteError()
  console.error('A screen failed', error)
  return (
    <section role="alert" className="mx-auto my-16 max-w-lg rounded-lg border border-red-200 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-2 text-slate-600">This page could not be shown. Reloading usually fixes it.</p>
      <Button className="mt-6" onClick={() => window.location.reload()}>
        Reload page
      </Button>
    </section>
  )
}
