import type { AppConfig } from '../../config'

/** What start-up needs of the demo's simulator. */
export interface DemoSimulator {
  readonly url: string
  close(): Promise<void>
}

/**
 * Demo mode (no SCORM Cloud credentials): the built-in simulator on loopback stands in for the
 * provider, in live mode with postbacks to our webhook, and the real client talks to it.
 * The simulator package loads here only, through a dynamic import, so production
 * code imports nothing from it and a server with credentials never loads it. `now` is the
 * clock the data's end is read from (tests fix it).
 */
export async function startDemoSimulator(
  config: AppConfig,
  now: () => number = Date.now,
): Promise<{ simulator: DemoSimulator; config: AppConfig }> {
  const { startOfUtcDay, startSimulator } = await import('@portal/scorm-cloud-sim')
  const simulator = await startSimulator({
    seed: 42,
    // The generated activity fills the year before its epoch: ending it today gives the
    // dashboard's months and a dispatch's weeks a trend up to now, the same all day long.
    epoch: startOfUtcDay(now()),
    port: 0,
    host: '127.0.0.1',
    // Some learners relaunch from their LMS: with instancing on that is a second registration
    // (the over-count the dispatch screen shows); turning instancing off stops it.
    live:
      config.port === 0
        ? { intervalMs: 20_000, relaunchRate: 0.1 }
        : {
            intervalMs: 20_000,
            relaunchRate: 0.1,
            postbackUrl: `http://127.0.0.1:${config.port}/api/webhooks/scorm-cloud/registrations`,
            postbackUser: config.postbackUser,
            postbackPassword: config.postbackPassword,
          },
  })
  return {
    simulator,
    config: {
      ...config,
      scormCloud: { appId: simulator.appId, secretKey: simulator.secretKey, baseUrl: simulator.url },
    },
  }
}
