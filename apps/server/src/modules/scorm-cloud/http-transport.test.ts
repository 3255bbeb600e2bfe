import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createScormCloudClient } from './scorm-cloud.client'

let server: Server | null = null
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = null
})

/** A real HTTP server that never answers its first request and drops the connection of every later one. */
async function stallsThenDrops(): Promise<string> {
  let requests = 0
  server = createServer((request) => {
    requests += 1
    if (requests > 1) request.socket.destroy()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
}

describe('the SCORM Cloud transport', () => {
  it('names the timeout when a stalled provider then drops the later tries', async () => {
    const client = createScormCloudClient({
      baseUrl: await stallsThenDrops(),
      appId: 'app',
      secretKey: 'key',
      requestTimeoutMs: 200,
      maxAttempts: 3,
      backoffBaseMs: 1,
      backoffCapMs: 5,
      maxRetryAfterMs: 2_000,
      breaker: { failureThreshold: 10, openMs: 100 },
    })
    await expect(client.getCourse('course-1')).rejects.toThrow('SCORM Cloud did not answer in time.')
  })
})
