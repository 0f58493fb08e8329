/**
 * A setup file of the cli project (vitest.config.ts): every test file gets a catalog cache of its own.
 * `list` and `search` keep their catalog under `$SESSIONTAPE_CACHE_DIR` (else `~/.cache/sessiontape`), so
 * without this a test would leave one in the home directory of whoever runs the suite, and read back the
 * one a real run left there. Child processes inherit it through `process.env`; a test that needs another
 * location passes its own environment.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'sessiontape-cli-cache-'))
process.env.SESSIONTAPE_CACHE_DIR = cacheDir
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))
