/**
 * Every local user can read every process's command line (/proc/<pid>/cmdline). `sessiontape view` opens
 * the browser ($BROWSER here: a small program that drives Debian's Chromium through playwright-core) on its
 * private launch file, never on the URL: neither the viewer's command line nor the opener's nor any of
 * Chromium's processes holds the secret, and the browser still lands on the live session page.
 */
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRecorder } from '@sessiontape/recorder'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { CLI_ARGS, packageDir } from './helpers/cli.js'

// Chromium and the viewer are real child processes on a shared machine: a hang detector only.
vi.setConfig({ testTimeout: 180_000 })

const CHROMIUM = process.env.SESSIONTAPE_CHROMIUM ?? '/usr/bin/chromium'
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

/** `pid` and every process below it (parent links read from /proc/<pid>/stat). */
function processTree(root: number): number[] {
  const parentOf = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // The command name, in parentheses, may hold spaces: the fields after its last `)` are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parentOf.set(Number(name), Number(fields[1]))
    } catch {
      // Ended between the listing and the read.
    }
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parentOf) if (parent === tree[i]) tree.push(pid)
  }
  return tree
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

describe.skipIf(!existsSync(CHROMIUM) || !existsSync('/proc/self/cmdline'))('view opening a browser', () => {
  it('puts its secret on no command line, and the browser lands on the live page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-cli-view-open-'))
    const recorder = createRecorder({ dir })
    recorder.record('user', { text: 'a question for the browser' })
    await recorder.close()

    // The opener: given the launch file's path, it opens it in Chromium and reports where that led.
    const report = join(dir, 'opened.json')
    const playwright = pathToFileURL(
      createRequire(resolve(packageDir, '../sessions/package.json')).resolve('playwright-core'),
    ).href
    const opener = join(dir, 'opener.mjs')
    writeFileSync(
      opener,
      `import { writeFileSync } from 'node:fs'
const { chromium } = (await import(${JSON.stringify(playwright)})).default
const browser = await chromium.launchPersistentContext(${JSON.stringify(join(dir, 'profile'))}, {
  executablePath: ${JSON.stringify(CHROMIUM)}, headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
})
const page = await browser.newPage()
await page.goto('file://' + process.argv[2])
await page.waitForURL(/^http:\\/\\/127\\.0\\.0\\.1:\\d+\\/$/, { timeout: 60000 })
await page.locator('article.turn').first().waitFor({ timeout: 60000 })
writeFileSync(${JSON.stringify(report)}, JSON.stringify({ url: page.url(), text: await page.locator('main').textContent(), argv: process.argv }))
setInterval(() => {}, 1 << 30)
`,
    )
    const browserProgram = join(dir, 'browser')
    writeFileSync(
      browserProgram,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(opener)} "$1"\n`,
    )
    chmodSync(browserProgram, 0o755)

    const child = spawn(process.execPath, [...CLI_ARGS, 'view', recorder.filePath], {
      cwd: packageDir,
      env: { ...process.env, BROWSER: browserProgram },
    })
    let tree: number[] = []
    onTestFinished(() => {
      // Every process this test started, by id (the opener and Chromium outlive the viewer: detached).
      const started = tree.length > 0 || child.pid === undefined ? tree : processTree(child.pid)
      for (const pid of started.slice(1)) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // Already ended.
        }
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    while (!stdout.includes('\n')) await sleep(20)
    const url = stdout.split('\n')[0]!
    const secret = new URL(url).searchParams.get('token')!
    expect(secret).toMatch(/^[\w-]{43}$/)

    for (let i = 0; i < 600 && !existsSync(report); i++) await sleep(200)
    const opened = JSON.parse(readFileSync(report, 'utf8')) as { url: string; text: string; argv: string[] }
    expect(opened.url).toBe(`${new URL(url).origin}/`)
    expect(opened.text).toContain('a question for the browser')
    // The opener was given the launch file's path, nothing else.
    expect(opened.argv.slice(2)).toEqual([expect.stringMatching(/sessiontape-view-\w+\/open-\d+\.html$/)])

    tree = processTree(child.pid!)
    const lines = tree.map((pid) => commandLine(pid)).filter((line) => line !== '')
    expect(lines.some((line) => line.includes(CHROMIUM) || /chrom/i.test(line))).toBe(true)
    expect(lines.some((line) => line.includes(opener))).toBe(true)
    expect(lines.filter((line) => line.includes(secret))).toEqual([])
    // And no process of this machine at all.
    const everyone = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
    expect(everyone.filter((pid) => commandLine(Number(pid)).includes(secret))).toEqual([])

    const launchFile = opened.argv[2]!
    const exited = new Promise<NodeJS.Signals | number | null>((done) =>
      child.on('exit', (code, signal) => done(signal ?? code)),
    )
    child.kill('SIGINT')
    expect(await exited).toBe('SIGINT')
    // The launch file went with the viewer.
    expect(existsSync(launchFile)).toBe(false)
  })
})
