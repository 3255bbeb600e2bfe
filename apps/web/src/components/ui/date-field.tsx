import { CalendarDays, X } from 'lucide-react'
import DatePicker from 'react-datepicker'
import { DAY_FORMAT, dateToDay, dayToDate, isFilterDay } from '@/lib/calendar-day'
import { Button } from './button'
import { Field, controlClass } from './field'
import './date-field.css'

type Props = {
  label: string
  /** The filter's day, yyyy-MM-dd, or '' for none. */
  value: string
  /** The other end of the range, for the calendar's highlight and its disabled days. */
  range: { start: string; end: string }
  side: 'start' | 'end'
  error?: string | null
  onChange: (value: string) => void
}

/**
 * One end of a date range (SPEC §2: yyyy-MM-dd, clearable, end not before start), on
 * react-datepicker: the one date input of the portal (the log filters, the completion report). The calendar disables the days the other end rules out; typed text is parsed
 * here, strictly, so a typed end before the start still reaches the screen and shows its error.
 */
export function DateField({ label, value, range, side, error, onChange }: Props) {
  const start = dayToDate(range.start)
  const end = dayToDate(range.end)
  return (
    <Field label={label} error={error}>
      {(control) => (
        <div className="flex gap-1">
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
            startDate={start}
            endDate={end}
            minDate={side === 'end' ? (start ?? undefined) : undefined}
            maxDate={side === 'start' ? (end ?? undefined) : undefined}
            showIcon
            toggleCalendarOnIconClick
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
