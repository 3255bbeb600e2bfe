import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../lib/app-error'
import { syncJob, syncSchedule } from './sync.scheduler'
import type { SyncService } from './sync.service'

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
const fakeSync = (fullDue: boolean, run: SyncService['run']) =>
  ({ fullRunDue: vi.fn(async () => fullDue), run: vi.fn(run) }) as unknown as SyncService & {
    run: ReturnType<typeof vi.fn>
  }

beforeEach(() => {
  vi.clearAllMocks()
})

describe('sync schedule', () => {
  it('recurs every SYNC_INTERVAL_MINUTES: cron when the interval divides an hour or a day, else a recurrence rule', () => {
    expect(syncSchedule(10)).toBe('*/10 * * * *')
    expect(syncSchedule(1)).toBe('*/1 * * * *')
    expect(syncSchedule(120)).toBe('0 */2 * * *')
    expect(syncSchedule(7)).toBe('FREQ=MINUTELY;INTERVAL=7')
    expect(syncSchedule(90)).toBe('FREQ=MINUTELY;INTERVAL=90')
  })

  it('is off at 0 minutes', () => {
    expect(syncSchedule(0)).toBeNull()
  })
})

describe('sync job', () => {
  it('runs every kind, full when a daily full run is due, else incremental', async () => {
    const due = fakeSync(true, async () => ({ ok: true, results: [] }))
    expect(await syncJob(due, log).run([{ trigger: 'schedule' }])).toEqual({ ran: true, ok: true, results: [] })
    expect(due.run).toHaveBeenCalledWith({ trigger: 'schedule', full: true })
    const notDue = fakeSync(false, async () => ({ ok: true, results: [] }))
    await syncJob(notDue, log).run([{ trigger: 'startup' }])
    expect(notDue.run).toHaveBeenCalledWith({ trigger: 'startup', full: false })
  })

  it('ends with what happened when another node holds the lock, and logs it without an error', async () => {
    const sync = fakeSync(false, async () => {
      throw new AppError('CONFLICT', 'A sync is already running.')
    })
    expect(await syncJob(sync, log).run([{ trigger: 'schedule' }])).toEqual({
      ran: false,
      message: expect.stringContaining('another node'),
    })
    expect(log.info).toHaveBeenCalledWith({ trigger: 'schedule' }, expect.stringContaining('another server'))
    expect(log.error).not.toHaveBeenCalled()
  })

  it('is one waiting at most', () => {
    expect(
      syncJob(
        fakeSync(false, async () => ({ ok: true, results: [] })),
        log,
      ).policy,
    ).toBe('short')
  })
})
