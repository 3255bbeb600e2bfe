/**
 * The SCORM Cloud simulator at benchmark size in its own process (its CLI), so its CPU and
 * memory are not counted as the sync's.
 */
import { startTsChild, type StartedChild } from './child-process'
import { settings } from './config'

export interface RunningSimulator {
  url: string
  appId: string
  secretKey: string
  process: StartedChild
}

export async function startBenchSimulator(): Promise<RunningSimulator> {
  const child = startTsChild('packages/scorm-cloud-sim/src/cli.ts', [
    '--size',
    'bench',
    '--seed',
    String(settings.simSeed),
    '--page-size',
    String(settings.simPageSize),
    '--port',
    '0',
  ])
  const [, url] = await child.waitForLine(/listening on (\S+)/, 120_000)
  const [, appId] = await child.waitForLine(/app id:\s+(\S+)/, 5_000)
  const [, secretKey] = await child.waitForLine(/secret key:\s+(\S+)/, 5_000)
  return { url: url!, appId: appId!, secretKey: secretKey!, process: child }
}
