import { createInterface } from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { isEmail } from '@portal/shared'
import { ConfigError, dataFolder, loadConfig } from '../config'
import { createDatabase } from '../db/client'
import { hashPassword, passwordPolicyError } from '../lib/passwords'
import { createUsersRepository } from '../modules/users/users.repository'

const USAGE = [
  "Usage: npm run create-admin -- [--email you@example.com] [--password '...'] [--name 'Your Name']",
  'Creates an admin in the database of DATABASE_URL, or the embedded one in DATA_DIR; asks for',
  'the email and the password when they are not given.',
  '  --email      the admin’s email address',
  '  --password   12 to 128 characters',
  '  --name       the name shown in the portal (optional)',
  '  --help       this text',
].join('\n')

/** `npm run create-admin -- --email a@b.c --password ...`, or asks for what is missing. */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  const email = (values.email ?? (await rl.question('Admin email: '))).trim()
  const password = values.password ?? (await rl.question('Password (12-128 characters): '))
  rl.close()
  if (!isEmail(email)) throw new Error('Please enter a valid email address.')
  const policy = passwordPolicyError(password, { email })
  if (policy) throw new Error(policy)
  const config = loadConfig()
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? null : dataFolder(config.dataDir, 'pglite'),
  })
  try {
    const users = createUsersRepository(database.db)
    if (await users.emailTaken(email)) throw new Error(`A user with the email ${email} already exists.`)
    await users.insert({
      email,
      username: email.split('@')[0]!,
      name: values.name?.trim() || null,
      passwordHash: await hashPassword(password),
      role: 'admin',
      companyId: null,
    })
    console.log(`Admin ${email} created.`)
  } finally {
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `Could not create the admin: ${(error as Error).message}`,
  )
  process.exit(1)
})
