import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

const VERSION = 'v1'

/**
 * Encrypts secrets at rest (single sign-on client secrets, authenticator-app keys) with AES-256-GCM (node:crypto). The 256-bit key is
 * the SHA-256 of the configured key text (SSO_SECRET_KEY or the file made in DATA_DIR), so any
 * text of 32 characters or more serves. Each value has its own random 96-bit IV; the GCM tag
 * makes a tampered value fail to open instead of giving garbage. The associated data binds a
 * value to its row and column, so a ciphertext copied to another connection does not open.
 */
export function createSecretBox(keyText: string) {
  const key = createHash('sha256').update(keyText, 'utf8').digest()
  return {
    seal(plain: string, context: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.')
    },
    /** The plain text, or null when the value was sealed with another key or altered. */
    open(sealed: string, context: string): string | null {
      const [version, iv, tag, body] = sealed.split('.')
      if (version !== VERSION || !iv || !tag || body === undefined) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    },
  }
}
export type SecretBox = ReturnType<typeof createSecretBox>
