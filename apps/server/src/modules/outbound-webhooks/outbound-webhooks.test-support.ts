import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A real webhook receiver for tests: it checks every delivery's signature with its own copy of
 * the Standard Webhooks verification (written here from the specification, not the portal's
 * signing code), keeps what it accepted in order, and answers as the test tells it.
 */
export interface Received {
  id: string
  type: string
  data: Record<string, unknown>
  verified: boolean
}

export type Behaviour = 'ok' | 'fail' | 'stall' | 'redirect'

/** Standard Webhooks verification: any `v1,` signature of `id.timestamp.body` with the decoded secret. */
export function verifySignature(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
  const id = String(headers['webhook-id'] ?? '')
  const timestamp = String(headers['webhook-timestamp'] ?? '')
  const signatures = String(headers['webhook-signature'] ?? '').split(' ')
  if (!id || !/^\d+$/.test(timestamp)) return false
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return signatures.some((s) => {
    const [version, value] = s.split(',')
    if (version !== 'v1' || !value) return false
    const given = Buffer.from(value, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

export async function startReceiver() {
  let secret = ''
  /** What to do with a request: by its event and how often this webhook-id came before (0 the first time). */
  let behave: (event: { type: string; data: Record<string, unknown>; seen: number }) => Behaviour = () => 'ok'
  const seenIds = new Map<string, number>()
  const accepted: Received[] = []
  let requests = 0
  const stalled: ServerResponse[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests += 1
      const body = Buffer.concat(chunks).toString('utf8')
      const id = String(req.headers['webhook-id'] ?? '')
      const seen = seenIds.get(id) ?? 0
      seenIds.set(id, seen + 1)
      let parsed: { type: string; data: Record<string, unknown> }
      try {
        parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> }
      } catch {
        return res.writeHead(400).end('not JSON')
      }
      const behaviour = behave({ ...parsed, seen })
      if (behaviour === 'stall') {
        stalled.push(res)
        return
      }
      if (behaviour === 'fail') return res.writeHead(500).end('receiver is down')
      if (behaviour === 'redirect') return res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end()
      const verified = verifySignature(secret, req.headers, body)
      if (!verified) return res.writeHead(401).end('bad signature')
      accepted.push({ id, type: parsed.type, data: parsed.data, verified })
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${'x'.repeat(3000)}`)
    })
  })
  server.keepAliveTimeout = 500
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    accepted,
    behave(rule: typeof behave) {
      behave = rule
    },
    get requests() {
      return requests
    },
    useSecret(value: string) {
      secret = value
    },
    async close() {
      for (const res of stalled) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>
