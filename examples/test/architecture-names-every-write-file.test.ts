// docs/architecture.md is the map a new maintainer reads before packages/recorder/src/write/: it must name
// every file and folder there, and nothing that is gone. (It once left out 16 of the 53 files.) Names are
// read from the write core's table, in backticks: a row's first column names its folder (none for the
// facade at write/'s top level), its second the files in that folder.
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

/** Every file under write/ as `folder/name.ts`, and every folder as `folder/`, relative to write/. */
function entries(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? [`${prefix}${entry.name}/`, ...entries(join(dir, entry.name), `${prefix}${entry.name}/`)]
      : [`${prefix}${entry.name}`],
  )
}

/** The names in backticks in one table cell. */
function namesIn(cell: string): string[] {
  return [...cell.matchAll(/`([\w./-]+)`/g)].map((match) => match[1]!)
}

describe('docs/architecture.md', () => {
  const section = writeSection()
  // A table row is `| folder | files | owns | does |`: the folder is the first name of the first cell, the
  // files are the second cell's names inside it.
  const named = new Set(
    section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => {
        const cells = line.split('|')
        const folder = namesIn(cells[1] ?? '')[0] ?? ''
        return [...(folder === '' ? [] : [folder]), ...namesIn(cells[2] ?? '').map((name) => folder + name)]
      }),
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
    const namedFiles = [...named].filter((name) => /^(?:[\w-]+\/)*(?:[\w-]+\.ts)?$/.test(name) && name !== '')
    expect(namedFiles.filter((name) => !present.has(name))).toEqual([])
  })
})
