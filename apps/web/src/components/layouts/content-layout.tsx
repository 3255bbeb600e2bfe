import type { ReactNode } from 'react'
import { APP_NAME } from '@/config/app'

/** A screen's title (also the document title) and its content. */
export function ContentLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <title>{`${title} | ${APP_NAME}`}</title>
      <div className="mx-auto w-full max-w-7xl">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </>
  )
}
