import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every regular file under `dir` (none when it does not exist), sorted: the harness's own view of what an
 * agent wrote, independent of any reader of ours. Symlinks are not followed. */
export function walk(dir: string): string[] {
  const out: string[] = []
  const visit = (current: string): void => {
    let entries
    try {
      entries = readdirSync(current, { withFileTypes: true })
    } catch {
      // Missing or unreadable: the agent wrote nothing here.
      return
    }
    for (const entry of entries) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (entry.isFile()) out.push(path)
    }
  }
  visit(dir)
  return out.sort()
}

/** path → `size:mtimeMs`, to see which files a step created or changed. */
export function snapshot(files: readonly string[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const file of files) {
    try {
      const st = statSync(file)
      map.set(file, `${st.size}:${st.mtimeMs}`)
    } catch {
      // Deleted between the walk and the stat: not part of the snapshot.
    }
  }
  return map
}
