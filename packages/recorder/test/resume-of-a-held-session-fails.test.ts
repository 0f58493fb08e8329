import { spawn } from 'node:child_process'
import { appendFile, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { createRecorder, SessionLockedError } from '../src/index.js'
import { withTempDir } from './helpers/records.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

describe('resuming a session that another live process holds fails with SessionLockedError', () => {
  it('rejects ready() with ERR_SESSION_LOCKED and neither repairs nor writes the held transcript', async () => {
    await withTempDir(async (dir) => {
      const holder = spawn(
        process.execPath,
        [
          '--conditions=@sessiontape/source',
          '--import',
          'tsx',
          'test/fixtures/hold-session-open.ts',
          dir,
          's1',
        ],
        { cwd: packageDir, stdio: ['pipe', 'pipe', 'inherit'] },
      )
      const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve))
      try {
        await new Promise<void>((resolve) =>
          holder.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()),
        )
        const file = path.join(dir, 's1.jsonl')
        // A torn tail the second process must not "repair" while the first one owns the file.
        await appendFile(file, '{"uuid":"torn')
        const before = await readFile(file)

        const second = createRecorder({ dir, sessionId: 's1', resume: true, meta: false, onError: () => {} })
        second.record('user', { text: 'must never reach the file' })
        const failure = await second.ready().then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failure).toBeInstanceOf(SessionLockedError)
        expect(failure).toMatchObject({ code: 'ERR_SESSION_LOCKED' })
        await second.close().catch(() => {})
        expect(await readFile(file)).toEqual(before)
      } finally {
        holder.stdin.end()
      }
      expect(await exited).toBe(0)
    })
  })
})
