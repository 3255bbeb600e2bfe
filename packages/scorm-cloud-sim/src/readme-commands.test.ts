import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Every `npm run` command the READMEs show works exactly as written, from the repository's
 * root: the script exists, and the simulator's and create-admin's flags reach the program
 * instead of npm (the commands are read from the READMEs, so a new one is checked too).
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..')
const READMES = ['README.md', 'packages/scorm-cloud-sim/README.md']

/** The `npm run …` commands in a Markdown text's code spans and code blocks. */
function npmRunCommands(markdown: string): string[] {
  const code = [
    ...[...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')),
    ...[...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!),
  ]
  return code
    .flatMap((line) => line.replace(/\s+#.*$/, '').split('&&'))
    .map((part) => part.trim().replace(/^([A-Z_]+=\S*\s+)+/, ''))
    .filter((part) => part.startsWith('npm run '))
}

const commands = [...new Set(READMES.flatMap((file) => npmRunCommands(readFileSync(path.join(root, file), 'utf8'))))]

// As a user's shell runs them: without the npm_* variables of a test run started by npm.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')))

function run(command: string, extraEnv: Record<string, string> = {}) {
  const result = spawnSync('sh', ['-c', command], {
    cwd: root,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: result.status, out: `${result.stdout}${result.stderr}` }
}

/** The command with `--help` as its last flag, after npm's `--` (added when missing). */
const withHelp = (command: string) =>
  command.includes(' -- ') ? `${command.replace(/ --help$/, '')} --help` : `${command} -- --help`

const argumentError = /Unexpected argument|Unknown option|Unknown cli config|Run arbitrary package scripts/

describe('the README commands', () => {
  it('finds the documented commands, and each names a script of the root package', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
        .scripts,
    )
    expect(commands).toEqual(
      expect.arrayContaining([
        'npm run sim -- --help',
        'npm run sim -- --port 4350 --epoch today',
        "npm run create-admin -- --email you@example.com --password '...'",
      ]),
    )
    for (const command of commands) expect(scripts, command).toContain(command.split(/\s+/)[2])
  })

  it('passes every documented simulator command’s flags to the simulator (--help lists them)', () => {
    const sim = commands.filter((c) => /^npm run sim\b/.test(c))
    expect(sim.length).toBeGreaterThanOrEqual(3)
    for (const command of sim) {
      const { status, out } = run(withHelp(command))
      expect(out, command).not.toMatch(argumentError)
      expect(status, `${command}: ${out}`).toBe(0)
      expect(out, command).toContain('Usage: npm run sim -- [flags]')
      expect(out, command).toContain('--port')
      expect(out, command).toContain('--epoch')
    }
  }, 240_000)

  it('starts the simulator on the port a documented command gives', async () => {
    const command = commands.find((c) => /^npm run sim -- .*--port \d+/.test(c) && !c.includes('--postback-url'))!
    const port = Number(/--port (\d+)/.exec(command)![1])
    const child = spawn('sh', ['-c', command], { cwd: root, env, detached: true })
    let out = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening" line from ${command}:\n${out}`)), 60_000)
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          const match = /listening on (\S+)/.exec(out)
          if (match) {
            clearTimeout(timer)
            resolve(match[1]!)
          }
        }
        child.stdout.on('data', onData)
        child.stderr.on('data', onData)
        child.on('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${out}`)))
      })
      expect(url).toBe(`http://127.0.0.1:${port}/api/v2`)
      const ping = await fetch(`${url}/ping`, {
        headers: { authorization: `Basic ${Buffer.from('sim-app:sim-secret').toString('base64')}` },
      })
      expect(ping.status).toBe(200)
      // `--epoch today`: the data ends at the start of the current UTC day.
      expect(out).toContain(`dated up to ${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`)
    } finally {
      // The whole group: npm's shell, tsx and the simulator's node process.
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    }
  }, 90_000)

  it('passes the documented create-admin flags to the script', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-readme-'))
    try {
      const extra = { DATA_DIR: dataDir, DATABASE_URL: '' }
      const createAdmin = commands.filter((c) => /^npm run create-admin\b/.test(c))
      expect(createAdmin.length).toBeGreaterThanOrEqual(2)
      for (const command of createAdmin) {
        const help = run(withHelp(command), extra)
        expect(help.out, command).not.toMatch(argumentError)
        expect(help.status, `${command}: ${help.out}`).toBe(0)
        expect(help.out, command).toContain('Usage: npm run create-admin -- [--email you@example.com]')
      }
      // As written: the flags arrive (the example's placeholder password is refused by the
      // password policy, before any database is opened).
      const asWritten = createAdmin.find((c) => c.includes('--email'))!
      const { status, out } = run(asWritten, extra)
      expect(out).not.toMatch(argumentError)
      expect(status).toBe(1)
      expect(out).toContain('Could not create the admin: Password must be 12 to 128 characters long.')
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)
})
