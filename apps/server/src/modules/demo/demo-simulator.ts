import type { AppConfig } from '../../config'

/** What start-up needs of the demo's simulator. */
export interface DemoSimulator {
  readonly url: string
  close(): Promise<void>
}

/**
 * Demo mode (no SCORM Cloud credentials): the built-in simulator on loopback stands in for the
 * provider, in live mode with postbacks to our webhook, and the real client talks to it.
 * Issue #18: the simulator package loads here only, through a dynamic import, so production
 * code imports nothing from it and a server with credentials never loads it.
 */
export async function startDemoSimulator(config: AppConfig): Promise<{ simulator: DemoSimulator; config: AppConfig }> {
  const { startSimulator } = await import('@portal/scorm-cloud-sim')
  const simulator = await startSimulator({
    seed: 42,
    port: 0,
    host: '127.0.0.1',
    live:
      config.port === 0
        ? { intervalMs: 20_000 }
        : {
            intervalMs: 20_000,
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
