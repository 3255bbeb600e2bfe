import { Compass } from 'lucide-react'
import { Link } from 'react-router'
import { Footer } from '@/components/layouts/footer'
import { Logo } from '@/components/ui/logo'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'

/** docs/product-rules.md §2 404: its texts, in the product's look: the logo above a card, the footer below. */
export default function NotFoundRoute() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`Page not found | ${APP_NAME}`}</title>
      <header className="flex h-16 items-center border-b border-slate-200 bg-white px-4 sm:px-6">
        <Logo />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-12">
        <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-blue-50 text-blue-700">
            <Compass aria-hidden="true" className="size-6" />
          </span>
          <p className="mt-4 text-sm font-semibold text-blue-700">404</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
          <Link
            to={paths.home.getHref()}
            className="mt-6 inline-flex h-10 items-center justify-center rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            Go back to home
          </Link>
        </div>
      </main>
      <Footer />
    </div>
  )
}
