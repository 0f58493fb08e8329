// `tail` fits each line to the terminal: widths in columns (CJK and emoji take two), cut with `…` between
// grapheme clusters, never inside one or inside our colour sequences, and everything from the file still
// escaped. Real child processes: a pty made by util-linux `script` (sized with `stty cols`), a pipe with
// COLUMNS, a pipe without.
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { makeRecord, toJsonl, withTempDir } from '../../recorder/test/helpers/records.js'
import { CLI_ARGS, packageDir, runCliWith } from './helpers/cli.js'

const CJK = '漢字かな交じり文を端末に表示する。'
const EMOJI = '👨‍👩‍👧‍👦🇯🇵👍🏽'
const ACCENTS = 'e\u0301te\u0301 '
const TEXTS = [
  `${CJK}${EMOJI}${CJK}${CJK}`,
  `${EMOJI.repeat(12)}`,
  `${ACCENTS.repeat(40)}`,
  `a\u001b[2J\u001b]0;owned\u0007${CJK}`,
  'short',
]

async function transcript(dir: string): Promise<string> {
  const file = path.join(dir, 's1.jsonl')
  const records = TEXTS.map((text, i) => makeRecord(i, i === 0 ? null : `u${i - 1}`, { text }))
  await writeFile(file, toJsonl(records))
  return file
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
// eslint-disable-next-line no-control-regex -- our own SGR colours, the only escapes tail may print
const SGR = /\u001b\[\d+m/g

/** The shown text of each record line, checked against what the file holds. */
function expectFitted(lines: readonly string[], columns: number): void {
  const recordLines = lines.filter((line) => /^\d+: /.test(line))
  expect(recordLines).toHaveLength(TEXTS.length)
  recordLines.forEach((line, index) => {
    expect(stringWidth(line), line).toBeLessThanOrEqual(columns)
    expect(line).not.toContain('\ufffd')
    // No escape from the file: only our colours, and nothing else starts with ESC.
    expect(line.replace(SGR, '')).not.toContain('\u001b')
    const shown = line.replace(SGR, '').replace(/^\d+: \S+ \S+ message(: )?/, '')
    const expected = TEXTS[index]!.replaceAll('\u001b', '\u241b')
      .replaceAll('\u0007', '\u2407')
      .replace(/\s+/g, ' ')
      .trim()
    if (shown.endsWith('…') && !expected.endsWith('…')) {
      const kept = shown.slice(0, -1)
      expect(expected.startsWith(kept), `${JSON.stringify(kept)} begins ${JSON.stringify(expected)}`).toBe(
        true,
      )
      // The cut falls on a boundary between grapheme clusters of the full text.
      const boundaries = new Set([...graphemes.segment(expected)].map((s) => s.index))
      expect(boundaries.has(kept.length), `cut at ${kept.length} of ${JSON.stringify(expected)}`).toBe(true)
    } else expect(shown).toBe(expected)
  })
}

function runInPty(columns: number, file: string): Promise<string> {
  const command = [process.execPath, ...CLI_ARGS, 'tail', file].map((arg) => `'${arg}'`).join(' ')
  return new Promise((resolve, reject) => {
    execFile(
      'script',
      ['-qec', `stty cols ${columns} rows 50; exec ${command}`, '/dev/null'],
      {
        cwd: packageDir,
        env: { ...process.env, COLUMNS: undefined, NO_COLOR: undefined, FORCE_COLOR: undefined },
      },
      (error, stdout) => (error === null ? resolve(stdout) : reject(new Error(`script: ${error.message}`))),
    )
  })
}

describe('sessiontape tail fits lines to the width of the output', () => {
  it('a terminal too narrow for the text still gets whole columns and a `…`', async () => {
    await withTempDir(async (dir) => {
      const out = await runInPty(12, await transcript(dir))
      const lines = out
        .replace(SGR, '')
        .split('\r\n')
        .filter((line) => /^\d+: /.test(line))
      expect(lines).toHaveLength(TEXTS.length)
      for (const line of lines) expect([stringWidth(line), line.at(-1)]).toEqual([12, '…'])
    })
  })

  it.for([40, 34])('on a terminal of %i columns (a pty), with colours', async (columns) => {
    await withTempDir(async (dir) => {
      const out = await runInPty(columns, await transcript(dir))
      expect(out).toMatch(SGR)
      expectFitted(out.split('\r\n'), columns)
    })
  })

  it('COLUMNS sets the width on a pipe', async () => {
    await withTempDir(async (dir) => {
      const { code, stdout } = await runCliWith({ env: { COLUMNS: '35' } }, 'tail', await transcript(dir))
      expect(code).toBe(0)
      expectFitted(stdout.split('\n'), 35)
    })
  })

  it('a pipe without COLUMNS gets 80 columns, no colours', async () => {
    await withTempDir(async (dir) => {
      const { code, stdout } = await runCliWith(
        { env: { COLUMNS: undefined } },
        'tail',
        await transcript(dir),
      )
      expect(code).toBe(0)
      expect(stdout).not.toContain('\u001b')
      expectFitted(stdout.split('\n'), 80)
      expect(stdout).toContain(`: ${'e\u0301te\u0301 '.repeat(8)}`)
    })
  })
})
