import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/**
 * ccusage's JavaScript release line: 18.x is the last that runs on Node 20 (`engines: >=20.19.4`; 19.x
 * needs Node 22, 20.x is a native binary). Pinned so the test checks one known reader. `@ccusage/codex`
 * (Codex CLI's usage) is released in step with it.
 */
export const CCUSAGE_VERSION = '18.0.11'
const INSTALL_TIMEOUT_MS = 120_000

/** The two readers, by their npm package and bin. */
const TOOLS = {
  ccusage: { pkg: 'ccusage', bin: 'ccusage' },
  'ccusage-codex': { pkg: '@ccusage/codex', bin: 'ccusage-codex' },
} as const
type Tool = keyof typeof TOOLS

function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number },
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(file, [...args], { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * The path of the ccusage bin, installed from the npm registry into a temp-dir cache on first use; or a
 * string saying why it could not be installed (no network, no npm), for the test to skip with.
 */
export async function ccusageBin(tool: Tool = 'ccusage'): Promise<{ bin: string } | { reason: string }> {
  const { pkg, bin: name } = TOOLS[tool]
  // Kept in the OS temp directory between runs so the suite stays fast; never part of the workspace.
  const cache = path.join(os.tmpdir(), `sessiontape-${name}-${CCUSAGE_VERSION}`)
  const bin = path.join(cache, 'node_modules', '.bin', name)
  if (existsSync(bin)) return { bin }
  await mkdir(cache, { recursive: true })
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const installed = await run(
    npm,
    ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', `${pkg}@${CCUSAGE_VERSION}`],
    { cwd: cache, timeout: INSTALL_TIMEOUT_MS },
  )
  if (installed.code === 0 && existsSync(bin)) return { bin }
  const why = (installed.stderr.trim().split('\n').at(-1) ?? '').slice(0, 300)
  return {
    reason: `could not install ${pkg}@${CCUSAGE_VERSION} from the npm registry (exit ${installed.code}): ${why}`,
  }
}

/** Runs ccusage with `CLAUDE_CONFIG_DIR` pointing at `configDir` (which holds `projects/`). */
export async function runCcusage(bin: string, configDir: string, args: readonly string[]) {
  return run(bin, args, {
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDir, NO_COLOR: '1' },
    timeout: 60_000,
  })
}

/** Runs `ccusage-codex` with `CODEX_HOME` pointing at `codexHome` (which holds `sessions/`). */
export async function runCcusageCodex(bin: string, codexHome: string, args: readonly string[]) {
  return run(bin, args, {
    env: { ...process.env, CODEX_HOME: codexHome, NO_COLOR: '1', TZ: 'UTC' },
    timeout: 60_000,
  })
}
