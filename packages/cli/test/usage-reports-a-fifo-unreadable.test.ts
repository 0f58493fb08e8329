import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { runCli } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from '../../recorder/test/helpers/timeouts.js'

// Raised for this file: see the recorder's helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('`usage` given a FIFO or a device names it unreadable (exit 2) instead of waiting on it', () => {
  it.for(['fifo', '/dev/zero'])('%s', async (which) => {
    await withTempDir(async (dir) => {
      const target = which === 'fifo' ? path.join(dir, 'session.jsonl') : which
      if (which === 'fifo') execFileSync('mkfifo', [target])
      const result = await runCli('usage', target)
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        `sessiontape usage: cannot read ${target} (ERR_NOT_A_FILE): ${target} is not a regular file (a FIFO, a socket or a device); it is not read as a transcript\n`,
      )
      expect(result.stdout).toContain('0 files read')
    })
  })
})
