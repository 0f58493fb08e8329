// record() returns at once; flush() tells you when everything before it is on disk.
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRecorder } from '@sessiontape/recorder'

const dir = process.argv[2] ?? (await mkdtemp(join(tmpdir(), 'sessiontape-basics-')))
await using recorder = createRecorder({ dir })

// Synchronous: the uuid is known before any byte is written, and the next record's parent is set.
const question = recorder.record('user', { text: 'What does flush() promise?' })
recorder.record('assistant', { text: 'Everything recorded before it is on disk when it resolves.' })
console.log(`recorded ${recorder.stats().recorded} events; the first is ${question}`)

// One write (and one fdatasync) carries both records.
const watermark = await recorder.flush()
console.log(`persisted ${watermark.count} records through ${watermark.uuid}`)

const lines = (await readFile(recorder.filePath, 'utf8')).trimEnd().split('\n')
console.log(`${recorder.filePath} holds ${lines.length} lines`)
