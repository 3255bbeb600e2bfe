import type { Dispatch } from '@portal/shared'
import { Plus } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Link } from '@/components/ui/link'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'

/**
 * The form loads when it is opened: its date field (react-datepicker) stays out of the
 * dashboard's first visit, which the bundle budget holds (scripts/check-bundle-budget.mjs).
 */
const NewDispatchDialog = lazy(() => import('./new-dispatch-dialog').then((m) => ({ default: m.NewDispatchDialog })))

/** "New Dispatch" (admin) opens the form; a created dispatch is announced with a link. */
export function NewDispatchButton({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<Dispatch | null>(null)
  return (
    <div className="flex flex-col items-center gap-2 sm:items-end">
      <Button
        variant={variant}
        onClick={() => {
          setCreated(null)
          setOpen(true)
        }}
      >
        <Plus aria-hidden="true" className="size-4" />
        New Dispatch
      </Button>
      {created && (
        <Banner variant="success">
          Dispatch created.{' '}
          <Link to={paths.dispatch.getHref(created.id)}>View {created.courseTitle || 'the dispatch'}</Link>
        </Banner>
      )}
      {open && (
        <Suspense fallback={<Spinner label="Opening the form..." />}>
          <NewDispatchDialog
            onClose={() => setOpen(false)}
            onCreated={(dispatch) => {
              setOpen(false)
              setCreated(dispatch)
            }}
          />
        </Suspense>
      )}
    </div>
  )
}
