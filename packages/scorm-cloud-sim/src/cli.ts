/**
 * Standalone simulator: `npm run sim -- --port 4100 --seed 42 --live` from the repository's root.
 * Prints the base URL and credentials, shuts down cleanly on SIGINT/SIGTERM.
 */
import { parseCli, usage } from './cli-args'
import { startSimulator } from './simulator'

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCli>
  try {
    parsed = parseCli(process.argv.slice(2), process.env)
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage()}`)
    process.exitCode = 2
    return
  }
  if (parsed.help) {
    console.log(usage())
    return
  }
  const sim = await startSimulator({ ...parsed.options, log: (line) => console.error(`[sim] ${line}`) })
  const { sizes, live, faults } = sim.options
  console.log(`SCORM Cloud simulator listening on ${sim.url}`)
  console.log(`  app id:     ${sim.appId}`)
  console.log(`  secret key: ${sim.secretKey}`)
  console.log(
    `  data:       seed ${sim.options.seed}, ${sizes.courses} courses, ${sizes.destinations} destinations, ${sizes.dispatches} dispatches, ${sizes.registrations} registrations, dated up to ${sim.options.epoch}`,
  )
  if (live)
    console.log(
      `  live:       every ${live.intervalMs} ms, ${live.batchSize} per tick${live.postbackUrl ? `, postbacks to ${live.postbackUrl}` : ''}`,
    )
  if (faults.errorRate || faults.latencyMs || faults.stallRate || faults.rateLimitBurst)
    console.log(`  faults:     ${JSON.stringify(faults)}`)

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    console.log(`${signal}: shutting down`)
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
