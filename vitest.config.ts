import { defaultServerConditions } from 'vite'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

// Tests run the live TypeScript sources: every package's exports map lists this condition first.
const conditions = ['@sessiontape/source', ...defaultServerConditions]

// A timeout here only catches a hang: tests that start child processes (tsx takes seconds to start on a
// busy 2-core machine) get two minutes, so a loaded machine never fails a test that would pass alone.
function project(
  name: string,
  root: string,
  testTimeout = 20_000,
  setupFiles: string[] = [],
): TestProjectInlineConfiguration {
  return {
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      name,
      root,
      include: ['test/**/*.test.ts'],
      environment: 'node',
      testTimeout,
      hookTimeout: testTimeout,
      setupFiles,
    },
  }
}

export default defineConfig({
  test: {
    projects: [
      project('recorder', './packages/recorder'),
      project('fs-cache', './packages/fs-cache'),
      project('shutdown', './packages/shutdown'),
      // The catalog cache of `list` and `search` goes to a temp dir, never ~/.cache (see the setup file).
      project('cli', './packages/cli', 120_000, ['test/helpers/temp-cache-dir.ts']),
      project('sessions', './packages/sessions'),
      project('examples', './examples', 120_000),
    ],
  },
})
