import { CalendarDays, X } from 'lucide-react'
import { useState } from 'react'
import DatePicker from 'react-datepicker'
import { DAY_FORMAT, dateToDay, dayToDate, isFilterDay } from '@/lib/calendar-day'
import { Button } from './button'
import { Field, controlClass } from './field'
import './date-field.css'

type Props = {
  label: string
  /** The day, yyyy-MM-dd, or '' for none. */
  value: string
  /**
   * One end of a range (a filter's From or To): the other end, for the calendar's highlight and
   * its disabled days. Left out for a single day (an expiry date).
   */
  range?: { start: string; end: string }
  side?: 'start' | 'end'
  hint?: string
  error?: string | null
  onChange: (value: string) => void
}

/**
 * The portal's one date input (docs/decisions.md: every date reads and is typed yyyy-MM-dd), on
 * react-datepicker, clearable: a day (the dispatch expiry) or one end of a range (docs/product-rules.md §2 filters
 * of the logs and the completion report, end not before start). The calendar disables the days
 * the other end rules out; typed text is parsed here, strictly, so a typed end before the start
 * still reaches the screen and shows its error.
 */
export function DateField({ label, value, range, side, hint, error, onChange }: Props) {
  const start = dayToDate(range?.start ?? '')
  const end = dayToDate(range?.end ?? '')
  const [calendarOpen, setCalendarOpen] = useState(false)
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        // Escape with the calendar open closes the calendar only: kept from a dialog around the
        // field, which would otherwise close too and lose what was typed. The keys are the input's
        // and the calendar's (both inside); this box only stops one from going further.
        // eslint-disable-next-line jsx-a11y/no-static-element-interactions
        <div
          className="flex gap-1"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && calendarOpen) event.stopPropagation()
          }}
        >
          <DatePicker
            id={control.id}
            aria-describedby={control['aria-describedby']}
            aria-invalid={control['aria-invalid'] ? 'true' : undefined}
            selected={dayToDate(value)}
            dateFormat={DAY_FORMAT}
            strictParsing
            placeholderText="YYYY-MM-DD"
            autoComplete="off"
            selectsStart={side === 'start'}
            selectsEnd={side === 'end'}
            startDate={side ? start : undefined}
            endDate={side ? end : undefined}
            minDate={side === 'end' ? (start ?? undefined) : undefined}
            maxDate={side === 'start' ? (end ?? undefined) : undefined}
            showIcon
            toggleCalendarOnIconClick
            onCalendarOpen={() => setCalendarOpen(true)}
            onCalendarClose={() => setCalendarOpen(false)}
            icon={<CalendarDays aria-hidden="true" />}
            popperPlacement="bottom-start"
            showPopperArrow={false}
            calendarClassName="date-filter-calendar"
            wrapperClassName="date-filter min-w-0 flex-1"
            className={`${controlClass} w-full pl-9`}
            onChangeRaw={(event) => {
              // Typed text: an empty box clears the filter, a whole yyyy-MM-dd day sets it,
              // anything else waits for more typing (and the box shows the filter again on blur).
              const input = event?.target
              if (event?.type !== 'change' || !(input instanceof HTMLInputElement)) return
              if (input.value === '' || isFilterDay(input.value)) onChange(input.value)
            }}
            onChange={(date: Date | null, event?: { type: string }) => {
              if (event?.type === 'change') return // typed: handled in onChangeRaw
              onChange(date ? dateToDay(date) : '')
            }}
          />
          <Button
            variant="ghost"
            size="sm"
            className="h-10"
            aria-label={`Clear ${label}`}
            disabled={!value}
            onClick={() => onChange('')}
          >
            <X aria-hidden="true" className="size-4" />
          </Button>
        </div>
      )}
    </Field>
  )
}

/**
 * A From and a To day of one filter, each knowing the other (the calendar's highlight and the
 * days it rules out). `cellClassName` puts each in a box of its own, for a wrapping row.
 */
export function DateRangeFields({
  labels,
  start,
  end,
  endError,
  cellClassName,
  onChange,
}: {
  labels: readonly [start: string, end: string]
  start: string
  end: string
  endError?: string | null
  cellClassName?: string
  onChange: (change: { startDate: string } | { endDate: string }) => void
}) {
  const range = { start, end }
  const field = (side: 'start' | 'end', label: string, value: string, error: string | null | undefined) => {
    const dayField = (
      <DateField
        label={label}
        side={side}
        value={value}
        range={range}
        error={error}
        onChange={(day) => onChange(side === 'start' ? { startDate: day } : { endDate: day })}
      />
    )
    return cellClassName ? <div className={cellClassName}>{dayField}</div> : dayField
  }
  return (
    <>
      {field('start', labels[0], start, undefined)}
      {field('end', labels[1], end, endError)}
    </>
  )
}
