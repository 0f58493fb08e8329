import { MAX_CARRIED_UUIDS } from '../format/segments.js'
import type { SessionFile } from './session-files.js'
import type { ClassifiedLine } from './torn-line-tracker.js'

type Lines = AsyncGenerator<ClassifiedLine<Buffer | undefined>[]>

/**
 * The classified lines of a session kept in several files (format/segments.ts), read as one: each file in
 * order, every problem naming the file it is in, and each record a continuation carried read once — where it
 * first appears. `linesOf` reads one file. Memory: the carried uuids of every segment (bounded by
 * MAX_CARRIED_UUIDS each) on top of one file's reading.
 */
export async function* stitchedLines(
  files: readonly SessionFile[],
  linesOf: (filePath: string) => Lines,
): Lines {
  // Every uuid a later file carries: a record with one of them, met first, marks it seen.
  const carriedLater = new Set<string>()
  for (const file of files.slice(1)) {
    for (const uuid of await carriedUuids(file, linesOf)) carriedLater.add(uuid)
  }
  const seen = new Set<string>()
  for (const file of files) {
    const carried = Math.min(file.continuation?.carried ?? 0, MAX_CARRIED_UUIDS)
    // Records of this file so far: the continuation is record 0, the carried ones 1..carried.
    let index = 0
    for await (const batch of linesOf(file.path)) {
      const out: ClassifiedLine<Buffer | undefined>[] = []
      for (const entry of batch) {
        const records = entry.records.filter((record) => {
          const isCarried = file.continuation !== undefined && index >= 1 && index <= carried
          index++
          if (!carriedLater.has(record.uuid)) return true
          if (isCarried && seen.has(record.uuid)) return false
          seen.add(record.uuid)
          return true
        })
        const problems = entry.problems.map((problem) => ({ ...problem, file: file.path }))
        const dropped = records.length < entry.records.length
        if (dropped && records.length === 0 && problems.length === 0 && entry.recovered === undefined)
          continue
        out.push({ ...entry, records, problems, file: file.path })
      }
      if (out.length > 0) yield out
    }
  }
}

/** The uuids of the records a segment's continuation says it carries (read from the file, bounded). */
async function carriedUuids(file: SessionFile, linesOf: (filePath: string) => Lines): Promise<string[]> {
  const carried = Math.min(file.continuation?.carried ?? 0, MAX_CARRIED_UUIDS)
  const uuids: string[] = []
  if (carried === 0) return uuids
  let index = 0
  for await (const batch of linesOf(file.path)) {
    for (const entry of batch) {
      for (const record of entry.records) {
        if (index >= 1) uuids.push(record.uuid)
        index++
        if (index > carried) return uuids
      }
    }
  }
  return uuids
}
