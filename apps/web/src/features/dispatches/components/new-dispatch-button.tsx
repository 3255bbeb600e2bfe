import type { Dispatch } from '@portal/shared'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { NewDispatchDialog } from './new-dispatch-dialog'

/** Issue #15: "New Dispatch" (admin) opens the form; a created dispatch is announced with a link. */
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
        <NewDispatchDialog
          onClose={() => setOpen(false)}
          onCreated={(dispatch) => {
            setOpen(false)
            setCreated(dispatch)
          }}
        />
      )}
    </div>
  )
}
