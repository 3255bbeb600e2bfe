import { createHmac } from 'node:crypto'
import type { AppConfig } from '../../config'
import { DEMO_ACCOUNTS } from '../demo/demo-accounts'
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

/** The name the mirror's SCORM Cloud application is recorded under, beside the secrets. */
const MIRRORED_APPLICATION = 'SCORM_CLOUD_APP_ID'

/**
 * The database mirrors one SCORM Cloud application: its courses, dispatches and registrations,
 * and (in demo mode, where the built-in simulator's application stands in) the demo accounts,
 * whose password is published. A server started with another application on it would sync that
 * application into the same mirror, and a full listing marks everything it does not hold as
 * removed; a server started without credentials on a real mirror would also add the demo
 * accounts. So the first start records the application, and a start with another one is refused.
 */
async function checkMirroredApplication(repository: ClusterRepository, config: AppConfig): Promise<void> {
  // Demo mode has its simulator's application by now (server.ts starts the simulator first);
  // it is told apart from a simulator started on its own with the same application id.
  const appId = config.scormCloud?.appId
  if (!appId) return
  const mine = secretFingerprint(config.demoMode ? `demo mode ${appId}` : appId)
  // A database used before applications were recorded has none: demo mode may record itself
  // there only on a fresh database or one the demo made (it holds the demo accounts), never on
  // one that already holds other accounts or a catalogue.
  if (config.demoMode && (await repository.fingerprintOf(MIRRORED_APPLICATION)) === null) {
    const past = await repository.pastUse(DEMO_ACCOUNTS.map((account) => account.email))
    if (past.used && !past.demo) throw mismatch(config)
  }
  if ((await repository.recordFingerprint(MIRRORED_APPLICATION, mine)) === mine) return
  throw mismatch(config)
}

function mismatch(config: AppConfig): SecretMismatchError {
  return new SecretMismatchError(
    (config.demoMode
      ? 'This server has no SCORM Cloud credentials (demo mode), but its database mirrors a SCORM Cloud ' +
        "application, and demo mode would add the demo accounts to it. Start with that application's " +
        'SCORM_CLOUD_APP_ID and SCORM_CLOUD_SECRET_KEY; the demo needs a database of its own.'
      : 'SCORM_CLOUD_APP_ID differs from the SCORM Cloud application this database mirrors (a database ' +
        "made in demo mode mirrors the built-in simulator's): a sync would mark every course and dispatch " +
        'the other application does not list as removed.') +
      ' To move this database to another application on purpose, follow "Moving to another SCORM Cloud ' +
      'application" in docs/scaling.md.',
  )
}

/**
 * A node started with another JWT_SECRET (or postback password, or SSO key) than the nodes before
 * it would answer differently (tokens refused, postbacks refused, secrets unreadable): it
 * refuses to start. The first node to start records each secret's fingerprint; the others
 * compare theirs. The same holds for the SCORM Cloud application the database mirrors.
 * docs/scaling.md says how to rotate a secret or move to another application.
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
  await checkMirroredApplication(repository, config)
}
