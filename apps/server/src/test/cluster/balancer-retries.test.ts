import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBalancer, type Balancer } from './cluster-infra'

/**
 * The balancer's file (deploy/haproxy/haproxy.cfg) in a real HAProxy, in front of two small
 * nodes that pass their health check and close the connection, without an answer, on the first
 * request that reaches either of them: what a node killed while working on a request does. A read
 * is sent again to the other node; a write is not, since the dead node may have made it.
 */
const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0

let balancer: Balancer
const servers: Server[] = []
/** Requests that reached a node, by method; and how many more a node drops unanswered. */
const received: string[] = []
let crashes = 0

async function node(): Promise<number> {
  const server = createServer((req, res) => {
    if (req.url === '/api/health') return res.end('ok')
    received.push(req.method!)
    req.resume()
    req.on('end', () => {
      if (crashes > 0) {
        crashes -= 1
        req.socket.destroy()
      } else res.end(JSON.stringify({ answered: req.method }))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe.runIf(haproxy)('the balancer after a node dies with a request in hand', () => {
  beforeAll(async () => {
    const nodes = [
      { port: await node(), role: 'web' as const },
      { port: await node(), role: 'web' as const },
    ]
    balancer = await startBalancer(await freePort(), await freePort(), nodes)
  })
  afterAll(async () => {
    await balancer?.stop()
    for (const server of servers) server.close()
  })

  it('sends a read again to another node, which answers it', async () => {
    received.length = 0
    crashes = 1
    const res = await fetch(`${balancer.url}/api/dispatches`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ answered: 'GET' })
    expect(received).toEqual(['GET', 'GET'])
  })

  it('does not send a write again: the caller gets 502 and the nodes saw it once', async () => {
    received.length = 0
    crashes = 1
    const res = await fetch(`${balancer.url}/api/course-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ courseId: 'c1', licenses: 1 }),
    })
    expect(res.status).toBe(502)
    expect(received).toEqual(['POST'])
    // The next one is answered: the node is still there.
    const again = await fetch(`${balancer.url}/api/course-requests`, { method: 'POST', body: '{}' })
    expect(again.status).toBe(200)
  })
})
