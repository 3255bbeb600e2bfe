/** The part of oidc-provider (which ships no types) that modules/sso/oidc-provider.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface Account {
    accountId: string
    claims(): Promise<Record<string, unknown>>
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount(ctx: unknown, id: string): Promise<Account | undefined>
      },
    )
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
