// What ships is the built ESM in dist/. CommonJS users on Node 20.19+ load it with require(), which only
// works when no module in the graph uses top-level await. Run a real CommonJS child to prove it.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const examplesDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const packages = ['@sessiontape/recorder', '@sessiontape/fs-cache', '@sessiontape/shutdown'] as const

describe.for(packages)('%s', (name) => {
  it('has a built dist/index.js (the test command builds first)', () => {
    const manifest = createRequire(join(examplesDir, 'package.json')).resolve(`${name}/package.json`)
    expect(existsSync(join(dirname(manifest), 'dist', 'index.js'))).toBe(true)
    expect(existsSync(join(dirname(manifest), 'dist', 'index.d.ts'))).toBe(true)
  })

  it('can be require()d from CommonJS without the source condition', async () => {
    const script = `
      const m = require(${JSON.stringify(name)});
      const resolved = require.resolve(${JSON.stringify(name)});
      process.stdout.write(JSON.stringify({ resolved, exports: Object.keys(m) }));
    `
    const { stdout } = await run(process.execPath, ['--no-warnings', '-e', script], {
      cwd: examplesDir,
      env: { ...process.env, NODE_OPTIONS: '' },
    })
    const result = JSON.parse(stdout) as { resolved: string; exports: string[] }
    expect(result.resolved).toMatch(/[/\\]dist[/\\]index\.js$/)
    expect(result.exports.length).toBeGreaterThan(0)
  })
})
