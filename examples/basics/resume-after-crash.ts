// A crash tore the last line of a transcript. Reading tolerates it; resuming repairs it.
import { appendFile, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder, readSession } from '@sessiontape/recorder'

const dir = await mkdtemp(join(tmpdir(), 'sessiontape-basics-'))
const first = createRecorder({ dir, sessionId: 'crashed' })
first.record('user', { text: 'Refactor the parser' })
first.record('assistant', { text: 'On it.' })
await first.close()

// What a kill -9 in the middle of a write leaves behind: half a record, no newline.
await appendFile(first.filePath, '{"uuid":"3f1c","parentUuid":"a1","type":"assis')

const before = await readSession(first.filePath)
console.log(
  `before resume: ${before.records.length} records, problems: ${before.problems.map((p) => p.kind).join(', ')}`,
)

// Resume leaves the torn bytes in place (nothing is truncated or rewritten): it ends them with a newline,
// appends a `recovered` record naming their byte range, and continues the chain.
const resumed = createRecorder({ dir, sessionId: 'crashed', resume: true })
resumed.record('user', { text: 'Where were we?' })
await resumed.close()

const after = await readSession(first.filePath)
console.log(`after resume: ${after.records.length} records, problems: ${after.problems.length}`)
console.log(`types: ${after.records.map((record) => record.type).join(' → ')}`)
