// docs/architecture.md is the map a new maintainer reads before packages/recorder/src/write/: it must name
// every file and folder there, and nothing that is gone. (It once left out 16 of the 53 files.) Names are
// read from the File column of the write core's table, in backticks, as the table writes them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoDir } from './helpers/readme-samples.js'

const writeDir = join(repoDir, 'packages', 'recorder', 'src', 'write')
const doc = readFileSync(join(repoDir, 'docs', 'architecture.md'), 'utf8')

/** The section from the write core's heading to the next heading of the same level. */
function writeSection(): string {
  const start = doc.indexOf('## The write core')
  const end = doc.indexOf('\n## ', start + 1)
  return doc.slice(start, end === -1 ? undefined : end)
}

/** Every file under write/ as `name.ts`, and every folder as `name/`, relative names only. */
function entries(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? [`${entry.name}/`, ...entries(join(dir, entry.name))] : [entry.name],
  )
}

describe('docs/architecture.md', () => {
  const section = writeSection()
  // A table row is `| stage | files | owns | does |`: the names are the second cell's.
  const fileCells = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|')[2] ?? '')
  const named = new Set(
    fileCells.flatMap((cell) => [...cell.matchAll(/`([\w./-]+)`/g)].map((match) => match[1]!)),
  )

  it('has the write core section and its table of files', () => {
    expect(section).toMatch(/^## The write core/)
    expect(named.size).toBeGreaterThan(10)
  })

  it('names every file and folder of packages/recorder/src/write/', () => {
    expect(entries(writeDir).filter((name) => !named.has(name))).toEqual([])
  })

  it('names no file of write/ that no longer exists', () => {
    const present = new Set(entries(writeDir))
    const namedFiles = [...named].filter((name) => /^[\w-]+\.ts$/.test(name) || /^[\w-]+\/$/.test(name))
    expect(namedFiles.filter((name) => !present.has(name))).toEqual([])
  })
})
