import { Link } from '@/components/ui/link'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'

export default function NotFoundRoute() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center">
      <title>{`Page not found | ${APP_NAME}`}</title>
      <p className="text-sm font-semibold text-blue-700">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <Link to={paths.home.getHref()} className="mt-6">
        Go back to home
      </Link>
    </main>
  )
}
