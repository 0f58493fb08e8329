/**
 * rsyslog as a log shipper under test: the Debian package's `rsyslogd`, run as a plain foreground child
 * process with its own config, work directory and pid file — no system service, no socket, no network.
 * imfile tails the sessions directory, omfile writes what it shipped to a local file: one line per
 * message, `<source file>\t<message>`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const CANDIDATES = ['/usr/sbin/rsyslogd', '/sbin/rsyslogd', '/usr/local/sbin/rsyslogd']

/** Path of an installed rsyslogd, or undefined. */
export function findRsyslogd(): string | undefined {
  const found = CANDIDATES.find((candidate) => existsSync(candidate))
  if (found !== undefined) return found
  const which = spawnSync('sh', ['-c', 'command -v rsyslogd'], { encoding: 'utf8' })
  const path = which.stdout.trim()
  return which.status === 0 && path.length > 0 ? path : undefined
}

/**
 * Installs Debian's rsyslog package (`apt-get update && apt-get install -y rsyslog`). Only as root and
 * only where apt-get exists; returns why not otherwise. The package's service is not used: policy-rc.d
 * or a missing init system may stop it from starting, which is fine here.
 */
export function installRsyslog():
  { readonly installed: true } | { readonly installed: false; readonly reason: string } {
  if (process.getuid?.() !== 0)
    return { installed: false, reason: 'not root, so apt-get cannot install rsyslog' }
  if (spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) {
    return { installed: false, reason: 'no apt-get on this machine' }
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'rsyslog']]) {
    const run = spawnSync('apt-get', args, { env, encoding: 'utf8' })
    if (run.status !== 0) {
      return {
        installed: false,
        reason: `apt-get ${args.join(' ')} failed: ${(run.stderr || run.stdout).trim().slice(-400)}`,
      }
    }
  }
  return findRsyslogd() === undefined
    ? { installed: false, reason: 'apt-get installed rsyslog but no rsyslogd was found' }
    : { installed: true }
}

export function rsyslogVersion(binary: string): string {
  const run = spawnSync(binary, ['-v'], { encoding: 'utf8' })
  return /rsyslogd\s+(\S+)/.exec(run.stdout)?.[1] ?? 'unknown'
}

export interface RsyslogSettings {
  readonly binary: string
  /** Where config, state, pid file, log and the shipped output go. */
  readonly workDir: string
  /** The file glob imfile tails, e.g. `<sessions>/*`. */
  readonly glob: string
  /** rsyslog's line limit (`maxMessageSize`); longer lines are cut into pieces, which the check counts. */
  readonly maxMessageSize: number
}

export interface RunningRsyslog {
  readonly outputPath: string
  readonly logPath: string
  /** SIGTERM and wait: rsyslog drains its queue and closes the output file before it exits. */
  stop(): Promise<number | null>
}

/** RainerScript: the global limit first (it must be set before any input exists), then imfile and omfile. */
export function rsyslogConfig(settings: RsyslogSettings, outputPath: string): string {
  const state = join(settings.workDir, 'state')
  return `global(workDirectory="${state}" maxMessageSize="${settings.maxMessageSize}")
module(load="imfile" mode="inotify")
template(name="shipped" type="list") {
  property(name="$!metadata!filename")
  constant(value="\\t")
  property(name="msg")
  constant(value="\\n")
}
ruleset(name="ship") {
  action(type="omfile" file="${outputPath}" template="shipped")
}
# readMode 0: one message per line. A line is shipped only once its newline is there (no readTimeout),
# so a torn last line waits until a resume ends it.
input(type="imfile" file="${settings.glob}" tag="sessiontape" readMode="0" addMetadata="on"
      ruleset="ship" freshStartTail="off")
`
}

export async function startRsyslog(settings: RsyslogSettings): Promise<RunningRsyslog> {
  mkdirSync(join(settings.workDir, 'state'), { recursive: true })
  const outputPath = join(settings.workDir, 'shipped.log')
  const configPath = join(settings.workDir, 'rsyslog.conf')
  const pidPath = join(settings.workDir, 'rsyslogd.pid')
  const logPath = join(settings.workDir, 'rsyslogd.log')
  writeFileSync(configPath, rsyslogConfig(settings, outputPath))
  const check = spawnSync(settings.binary, ['-N1', '-f', configPath], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(`rsyslogd rejected its config:\n${check.stdout}${check.stderr}`)
  writeFileSync(logPath, '')
  const child: ChildProcess = spawn(settings.binary, ['-n', '-f', configPath, '-i', pidPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  // Started when its pid file is there (it writes it once the config is loaded and inputs are set up).
  const deadline = Date.now() + 10_000
  while (!existsSync(pidPath)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`rsyslogd did not start:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    outputPath,
    logPath,
    async stop() {
      child.kill('SIGTERM')
      const code = await exited
      writeFileSync(logPath, log)
      return code
    },
  }
}
