import { createHmac } from 'node:crypto'
import type { AppConfig } from '../../config'
import type { ClusterRepository } from './cluster.repository'

/** Fixed label the fingerprints are keyed hashes of; changing it would refuse every running deployment. */
const LABEL = 'dispatch-portal secret fingerprint v1'

/** A secret that every node on one database must share, by its environment variable. */
interface SharedSecret {
  name: string
  value: string
}

function sharedSecrets(config: AppConfig): SharedSecret[] {
  const secrets = [
    // Access tokens signed on one node are checked on every other.
    { name: 'JWT_SECRET', value: config.jwtSecret },
    // SCORM Cloud posts results to whichever node the balancer picks.
    { name: 'POSTBACK_PASSWORD', value: config.postbackPassword },
  ]
  // Secrets sealed on one node are opened on another; a key made in each node's DATA_DIR
  // instead is per node, and docs/scaling.md asks for SSO_SECRET_KEY on several nodes.
  if (config.ssoSecretKey) secrets.push({ name: 'SSO_SECRET_KEY', value: config.ssoSecretKey })
  return secrets
}

/** The HMAC of the fixed label keyed with the secret: equal secrets give equal fingerprints, and it reveals nothing of the secret. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update(LABEL).digest('base64url')
}

export class SecretMismatchError extends Error {}

/**
 * A node started with another JWT_SECRET (or postback password, or SSO key) than the nodes before
 * it would answer differently (tokens refused, postbacks refused, secrets unreadable): it
 * refuses to start. The first node to start records each secret's fingerprint; the others
 * compare theirs. docs/scaling.md says how to rotate a secret.
 */
export async function checkSharedSecrets(repository: ClusterRepository, config: AppConfig): Promise<void> {
  const different: string[] = []
  for (const secret of sharedSecrets(config)) {
    const mine = secretFingerprint(secret.value)
    if ((await repository.recordFingerprint(secret.name, mine)) !== mine) different.push(secret.name)
  }
  if (different.length > 0) {
    throw new SecretMismatchError(
      `${different.join(', ')} ${different.length === 1 ? 'differs' : 'differ'} from the value the other server ` +
        'nodes on this database were started with (the database keeps a keyed fingerprint of it, never ' +
        'the secret). Start every node with the same value; to change it on purpose, follow "Rotating a ' +
        'shared secret" in docs/scaling.md.',
    )
  }
}
