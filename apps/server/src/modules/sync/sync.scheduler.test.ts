import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../lib/app-error'
import { startSyncScheduler } from './sync.scheduler'
import type { SyncService } from './sync.service'

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
const fakeSync = (fullDue: boolean, run: SyncService['run']) =>
  ({ fullRunDue: vi.fn(async () => fullDue), run: vi.fn(run) }) as unknown as SyncService & {
    run: ReturnType<typeof vi.fn>
  }

beforeEach(() => {
  vi.useFakeTimers()
  vi.clearAllMocks()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('sync scheduler', () => {
  it('runs every kind each interval, full when a daily full run is due, until stopped', async () => {
    const sync = fakeSync(true, async () => ({ ok: true, results: [] }))
    const scheduler = startSyncScheduler(sync, 10, log)
    await vi.advanceTimersByTimeAsync(10 * 60_000 - 1)
    expect(sync.run).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(sync.run).toHaveBeenCalledWith({ trigger: 'schedule', full: true })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(sync.run).toHaveBeenCalledTimes(2)
    scheduler.stop()
    await vi.advanceTimersByTimeAsync(60 * 60_000)
    expect(sync.run).toHaveBeenCalledTimes(2)
  })

  it('is off at 0 minutes', async () => {
    const sync = fakeSync(false, async () => ({ ok: true, results: [] }))
    startSyncScheduler(sync, 0, log)
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000)
    expect(sync.run).not.toHaveBeenCalled()
  })

  it('does not stack a tick on a run still going, and logs a busy lock without failing', async () => {
    let finish = () => {}
    const sync = fakeSync(false, () => new Promise((resolve) => (finish = () => resolve({ ok: true, results: [] }))))
    const scheduler = startSyncScheduler(sync, 1, log)
    await vi.advanceTimersByTimeAsync(3 * 60_000)
    expect(sync.run).toHaveBeenCalledTimes(1)
    expect(sync.run).toHaveBeenCalledWith({ trigger: 'schedule', full: false })
    finish()
    sync.run.mockRejectedValueOnce(new AppError('CONFLICT', 'A sync is already running.'))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(sync.run).toHaveBeenCalledTimes(2)
    expect(log.info).toHaveBeenCalledWith({ trigger: 'schedule' }, expect.stringContaining('another server'))
    expect(log.error).not.toHaveBeenCalled()
    scheduler.stop()
  })
})
