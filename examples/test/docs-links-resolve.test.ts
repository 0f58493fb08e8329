// Every relative link a reader can follow in README.md, packages/*/README.md and docs/*.md leads somewhere:
// the file exists and its #anchor is a heading there. Docs get restructured (headings renamed, journals
// cut) and a link into a renamed section fails silently on GitHub — this makes it fail here instead.
// The check is scripts/check-links.ts, run as a real process the way a maintainer runs it.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repoDir } from './helpers/readme-samples.js'

const script = join(repoDir, 'scripts', 'check-links.ts')

function checkLinks(root?: string): { code: number | null; stdout: string; stderr: string } {
  const args = ['--import', 'tsx', script, ...(root === undefined ? [] : ['--root', root])]
  const run = spawnSync(process.execPath, args, {
    cwd: repoDir,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('relative links in the READMEs and docs/', () => {
  it('all resolve to a file, and every #anchor to a heading of it', () => {
    const { code, stdout, stderr } = checkLinks()
    expect(stderr).toBe('')
    // On failure the output names each broken link as file:line: target — why.
    expect(stdout.trim().split('\n').at(-1), stdout).toMatch(/^\d+ relative links in \d+ files, 0 broken$/)
    expect(code).toBe(0)
  })
})

describe('the link check itself', () => {
  const root = mkdtempSync(join(tmpdir(), 'check-links-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('reports a missing file and a missing anchor by file and line, and nothing else', () => {
    mkdirSync(join(root, 'docs'))
    mkdirSync(join(root, 'packages', 'a'), { recursive: true })
    writeFileSync(
      join(root, 'docs', 'guide.md'),
      [
        '# Guide',
        '## What `flush()` promises — and when',
        '## Notes',
        '## Notes',
        '<a id="kept-anchor"></a>',
      ].join('\n'),
    )
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Top',
        'Good: [guide](docs/guide.md), [promise](docs/guide.md#what-flush-promises--and-when),',
        '[second notes](docs/guide.md#notes-1), [explicit](./docs/guide.md#kept-anchor), [here](#top),',
        '[folder](packages/a), [site](https://example.com/nope), [mail](mailto:x@example.com).',
        'Broken: [gone](docs/missing.md) and [stale](docs/guide.md#state-at-2026-11-27).',
        '```md',
        '[in a fence](docs/also-missing.md)',
        '```',
        'Inline code is not a link: `[x](nowhere.md)`.',
        '[ref]: docs/guide.md#notes-2',
      ].join('\n'),
    )
    writeFileSync(
      join(root, 'packages', 'a', 'README.md'),
      '# a\nSee [the guide](../../docs/guide.md#guide).\n',
    )

    const { code, stdout } = checkLinks(root)
    expect(stdout.trim().split('\n')).toEqual([
      'README.md:5: docs/missing.md — no such file: docs/missing.md',
      'README.md:5: docs/guide.md#state-at-2026-11-27 — no heading or anchor "state-at-2026-11-27" in docs/guide.md',
      'README.md:10: docs/guide.md#notes-2 — no heading or anchor "notes-2" in docs/guide.md',
      '10 relative links in 3 files, 3 broken',
    ])
    expect(code).toBe(1)
  })
})
