import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { cn } from './cn'

export type TabItem = { id: string; label: ReactNode; panel: ReactNode }

/**
 * WAI-ARIA tabs (APG "Tabs with manual activation" keyboard model, activated on arrow keys):
 * one tab stop, Left/Right move between tabs, Home/End go to the ends, each panel is labelled
 * by its tab. Only the selected panel is rendered.
 */
export function Tabs({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string
  items: readonly TabItem[]
  selected: string
  onSelect: (id: string) => void
}) {
  const base = useId()
  const refs = useRef<Record<string, HTMLButtonElement | null>>({})
  const current = items.find((item) => item.id === selected) ?? items[0]

  const move = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key]
    if (target === undefined) return
    event.preventDefault()
    const next = items[target]!
    onSelect(next.id)
    refs.current[next.id]?.focus()
  }

  return (
    <div>
      {/* The tabs wrap onto a second line when the screen is narrow: all of them stay in sight
          (a sideways scroll cut "SCORM Dispatches" with nothing showing there were more). */}
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {items.map((item, index) => {
          const active = item.id === current?.id
          return (
            <button
              key={item.id}
              ref={(node) => {
                refs.current[item.id] = node
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${item.id}`}
              aria-selected={active}
              aria-controls={`${base}-panel-${item.id}`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(item.id)}
              onKeyDown={(event) => move(event, index)}
              className={cn(
                '-mb-px border-b-2 px-4 py-2 text-sm font-medium whitespace-nowrap',
                active ? 'border-blue-700 text-blue-700' : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {item.label}
            </button>
          )
        })}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
          tabIndex={0}
          className="pt-4 focus:outline-none"
        >
          {current.panel}
        </div>
      )}
    </div>
  )
}
