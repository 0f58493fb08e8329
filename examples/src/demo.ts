// Minimal demo until the full example agent lands: records a few chat events as JSONL and
// prints where the transcript went. Replaced by examples/agent once the recorder exists.
import { randomUUID } from 'node:crypto'
import { appendFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = process.argv[2] ?? join(tmpdir(), 'sessiontape-demo')
const sessionId = randomUUID()
const filePath = join(dir, `${sessionId}.jsonl`)
await mkdir(dir, { recursive: true, mode: 0o700 })

let parentUuid: string | null = null
const lines: string[] = []
for (const [type, text] of [
  ['user', 'List the files in this directory'],
  ['assistant', 'Calling the list tool'],
  ['tool_result', 'README.md package.json'],
] as const) {
  const uuid = randomUUID()
  lines.push(JSON.stringify({ uuid, parentUuid, sessionId, timestamp: new Date().toISOString(), type, text }))
  parentUuid = uuid
}
await appendFile(filePath, lines.join('\n') + '\n', { mode: 0o600 })
console.log(`recorded ${lines.length} events to ${filePath}`)
