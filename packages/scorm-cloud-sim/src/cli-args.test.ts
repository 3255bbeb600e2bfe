import { describe, expect, it } from 'vitest'
import { parseCli } from './cli-args'
import { resolveOptions } from './options'

describe('CLI flags and environment', () => {
  it('maps flags to options, flags winning over SIM_* variables', () => {
    const { options } = parseCli(
      [
        '--port',
        '4100',
        '--seed',
        '42',
        '--size',
        'bench',
        '--live',
        '--postback-url',
        'http://127.0.0.1:3000/hook',
        '--error-rate',
        '0.3',
        '--rate-limit',
        '20:3:2',
      ],
      { SIM_SEED: '7', SIM_LATENCY_MS: '25', SIM_POSTBACK_USER: 'u' },
    )
    const resolved = resolveOptions(options)
    expect(resolved).toMatchObject({ port: 4100, seed: 42 })
    expect(resolved.sizes).toMatchObject({
      dispatches: 50_000,
      registrations: 1_000_000,
      bigDispatchRegistrations: 100_000,
    })
    expect(resolved.faults).toMatchObject({
      errorRate: 0.3,
      latencyMs: 25,
      rateLimitBurst: { every: 20, length: 3, retryAfterSeconds: 2 },
    })
    expect(resolved.live).toMatchObject({ postbackUrl: 'http://127.0.0.1:3000/hook', postbackUser: 'u' })
  })

  it('uses demo sizes, no live mode and default credentials without flags', () => {
    const resolved = resolveOptions(parseCli([], {}).options)
    expect(resolved).toMatchObject({
      appId: 'sim-app',
      secretKey: 'sim-secret',
      host: '127.0.0.1',
      port: 0,
      live: null,
      pageSize: 100,
      paging: 'keyset',
    })
    expect(resolved.sizes).toEqual({
      courses: 40,
      destinations: 15,
      dispatches: 150,
      registrations: 5000,
      bigDispatchRegistrations: 0,
    })
  })

  it('rejects bad values with a message', () => {
    expect(() => parseCli(['--size', 'huge'], {})).toThrow(/--size/)
    expect(() => parseCli(['--seed', 'abc'], {})).toThrow(/--seed/)
    expect(() => parseCli(['--unknown'], {})).toThrow()
    expect(() => parseCli(['--paging', 'random'], {})).toThrow(/--paging/)
    expect(resolveOptions(parseCli([], { SIM_PAGING: 'offset' }).options).paging).toBe('offset')
    expect(() => resolveOptions({ sizes: { courses: 2, destinations: 2, dispatches: 5 } })).toThrow(/exceeds/)
  })

  it('takes --epoch as an ISO instant or today, the start of the current UTC day', () => {
    const now = () => Date.parse('2026-11-27T17:18:39Z')
    expect(parseCli(['--epoch', 'today'], {}, now).options.epoch).toBe('2026-11-27T00:00:00.000Z')
    expect(parseCli([], { SIM_EPOCH: 'today' }, now).options.epoch).toBe('2026-11-27T00:00:00.000Z')
    expect(parseCli(['--epoch', '2025-03-01T00:00:00Z'], {}, now).options.epoch).toBe('2025-03-01T00:00:00Z')
    expect(resolveOptions(parseCli([], {}, now).options).epoch).toBe('2026-01-01T00:00:00.000Z')
    expect(() => parseCli(['--epoch', 'tomorrow'], {}, now)).toThrow('--epoch must be an ISO instant or today')
  })
})
