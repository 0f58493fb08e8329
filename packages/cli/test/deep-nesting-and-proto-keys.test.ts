import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliWith } from './helpers/cli.js'

const runCli = (...args: string[]) => runCliWith({}, ...args)
import { makeRecord } from '../../recorder/test/helpers/records.js'

const DEPTH = 200_000

/** A record that JSON.parse accepts (verify calls it clean) and JSON.stringify cannot write back. */
function deepLine(): string {
  const head = JSON.stringify(makeRecord(1, 'u0', { deep: 'X' }))
  return head.replace('"X"', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`)
}

function protoLine(): string {
  return JSON.stringify(makeRecord(2, 'u1', { renamed: { kept: true } })).replace('"renamed"', '"__proto__"')
}

// One CLI process per test: each starts tsx (seconds on a busy 2-core machine), and a test's timeout is
// only a hang detector for one command, not a bound on five in a row.
describe('records of any shape render: deep nesting without recursion limits, __proto__ keys kept', () => {
  let dir: string
  let file: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-deep-'))
    file = path.join(dir, 's1.jsonl')
    await writeFile(file, `${JSON.stringify(makeRecord(0, null))}\n${deepLine()}\n${protoLine()}\n`)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('verify calls a 200,000-level record clean', async () => {
    expect((await runCli('verify', file)).code).toBe(0)
  })

  it('show prints a 200,000-level record and a __proto__ key', async () => {
    const shown = await runCli('show', '--raw', file)
    expect(shown).toMatchObject({ code: 0, stderr: '' })
    expect(shown.stdout).toContain('   deep: {"a":{"a":{"a":')
    expect(shown.stdout).toContain('   __proto__: {"kept":true}')
  })

  it('show --json writes a 200,000-level record back whole, __proto__ kept as an own key', async () => {
    const json = await runCli('show', '--json', file)
    expect(json.code).toBe(0)
    const { records } = JSON.parse(json.stdout) as { records: Array<Record<string, unknown>> }
    expect(records).toHaveLength(3)
    expect(Object.hasOwn(records[2]!, '__proto__')).toBe(true)
    expect(records[2]!['__proto__']).toEqual({ kept: true })
    let depth = 0
    let at: unknown = records[1]!.deep
    while (typeof at === 'object' && at !== null) {
      at = (at as { a: unknown }).a
      depth++
    }
    expect(depth).toBe(DEPTH)
  })

  it('tail prints the record after a 200,000-level one', async () => {
    const tailed = await runCli('tail', file)
    expect(tailed).toMatchObject({ code: 0, stderr: '' })
    expect(tailed.stdout).toContain('3: 2026-01-01 00:00:02Z message: record 2 __proto__: {"kept":true}')
  })

  it('tail --json keeps a __proto__ key after a 200,000-level record', async () => {
    const tailedJson = await runCli('tail', '--json', file)
    expect(tailedJson.code).toBe(0)
    const lines = tailedJson.stdout.trim().split('\n')
    const last = JSON.parse(lines[2]!) as Record<string, unknown>
    expect(Object.hasOwn(last, '__proto__')).toBe(true)
    expect(last['__proto__']).toEqual({ kept: true })
  })
})
