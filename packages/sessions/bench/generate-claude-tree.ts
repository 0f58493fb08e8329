/**
 * Writes a tree of Claude Code-format transcripts for the search/list benchmark: `<root>/<project>/<uuid>.jsonl`
 * like `~/.claude/projects`, deterministic for a seed. Text is drawn from a Zipf-weighted vocabulary plus
 * code-like identifiers, paths and hex ids, so the number of distinct terms and trigrams grows with the
 * corpus the way real transcripts' do (tool output is file contents and command output, full of unique
 * tokens). Sizes are skewed: most sessions are small, a few are megabytes.
 *
 * A marker token (`NEEDLE_TOKEN`) is planted in a known set of sessions in different places (user text,
 * tool output, thinking, a tool's input), so the benchmark can check that search finds every one of them.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const NEEDLE_TOKEN = 'zebracornflux'
/**
 * Sessions that get the needle: 50, evenly spread (every 60th of 3,000), so some are in each size band —
 * and more than a default limit would ever have shown (search once returned 20 of them, silently).
 */
export const NEEDLE_SESSIONS = 50

export interface GeneratedTree {
  readonly sessions: number
  readonly bytes: number
  /** Files that contain {@link NEEDLE_TOKEN}. */
  readonly needleFiles: readonly string[]
}

/** A small seeded PRNG (mulberry32): the same tree for the same seed on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES =
  'ka lo mi ne ra to su pe di gu an el or is um ex bar foo qux zed vin tor pax lum ser cal dor fen'.split(' ')
const COMMON =
  'the a to of and in is it that for on with this we you be as are can use file test function error should will not from'.split(
    ' ',
  )

export async function generateClaudeTree(
  root: string,
  options: { readonly sessions: number; readonly targetBytes: number; readonly seed?: number },
): Promise<GeneratedTree> {
  const rand = random(options.seed ?? 20261125)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!
  // A vocabulary of ~20,000 made-up words; drawn with a Zipf-like skew (rank ∝ u³).
  const vocabulary: string[] = []
  for (let i = 0; i < 20_000; i++) {
    let word = ''
    const n = 2 + Math.floor(rand() * 3)
    for (let s = 0; s < n; s++) word += pick(SYLLABLES)
    vocabulary.push(word)
  }
  const word = (): string =>
    rand() < 0.35 ? pick(COMMON) : vocabulary[Math.floor(rand() ** 3 * vocabulary.length)]!
  const hex = (n: number): string => {
    let s = ''
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rand() * 16)]
    return s
  }
  const uuid = (): string => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`
  const sentence = (words: number): string => {
    const out: string[] = []
    for (let i = 0; i < words; i++) out.push(word())
    return `${out.join(' ')}.`
  }
  const prose = (chars: number): string => {
    let s = ''
    while (s.length < chars) s += `${sentence(6 + Math.floor(rand() * 14))} `
    return s.slice(0, chars)
  }
  const codeLine = (): string => {
    const kind = rand()
    if (kind < 0.3) return `  const ${word()}${hex(2)} = ${word()}(${word()}, ${Math.floor(rand() * 1e6)})`
    if (kind < 0.5) return `src/${word()}/${word()}_${hex(4)}.ts:${Math.floor(rand() * 900)}: ${sentence(5)}`
    if (kind < 0.65) return `  id: "${uuid()}", sha: ${hex(40)}`
    return `  ${prose(40 + Math.floor(rand() * 60))}`
  }
  const code = (chars: number): string => {
    const lines: string[] = []
    let n = 0
    while (n < chars) {
      const line = codeLine()
      lines.push(line)
      n += line.length + 1
    }
    return lines.join('\n')
  }

  // Session sizes: lognormal-ish around the mean the target asks for.
  const mean = options.targetBytes / options.sessions
  const weights: number[] = []
  for (let i = 0; i < options.sessions; i++) weights.push(Math.exp((rand() + rand() + rand() - 1.5) * 2.2))
  const scale = options.targetBytes / weights.reduce((a, b) => a + b, 0)

  const projects: string[] = []
  for (let i = 0; i < Math.max(1, Math.round(options.sessions / 40)); i++)
    projects.push(`/home/dev/${word()}-${hex(3)}`)
  const models = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5']

  let bytes = 0
  const needleFiles: string[] = []
  const needleEvery = Math.max(1, Math.floor(options.sessions / NEEDLE_SESSIONS))
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  for (let i = 0; i < options.sessions; i++) {
    const cwd = pick(projects)
    const dir = path.join(root, cwd.replace(/[^a-zA-Z0-9]/g, '-'))
    await mkdir(dir, { recursive: true })
    const sessionId = uuid()
    const file = path.join(dir, `${sessionId}.jsonl`)
    const size = Math.max(4_000, Math.min(weights[i]! * scale, mean * 40))
    const needle = i % needleEvery === Math.min(7, needleEvery - 1) && needleFiles.length < NEEDLE_SESSIONS
    const needleAt = needle ? Math.floor(rand() * 4) : -1
    let time = start + i * 600_000
    let parent: string | null = null
    const envelope = (type: string) => {
      const u = uuid()
      const base = {
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd,
        sessionId,
        version: '2.1.3',
        gitBranch: 'main',
        type,
        uuid: u,
        timestamp: new Date((time += 1000 + Math.floor(rand() * 20_000))).toISOString(),
      }
      parent = u
      return base
    }
    const lines: string[] = []
    let n = 0
    const push = (value: unknown) => {
      const line = JSON.stringify(value)
      lines.push(line)
      n += line.length + 1
    }
    push({ type: 'summary', summary: sentence(5), leafUuid: uuid() })
    let turn = 0
    while (n < size) {
      const placeNeedle = (slot: number, text: string) =>
        needleAt === slot && turn === 0 ? `${text} ${NEEDLE_TOKEN} ${word()}` : text
      push({
        ...envelope('user'),
        message: { role: 'user', content: placeNeedle(0, prose(60 + Math.floor(rand() * 400))) },
      })
      const model = pick(models)
      const callId = `toolu_${hex(24)}`
      push({
        ...envelope('assistant'),
        requestId: `req_${hex(20)}`,
        message: {
          id: `msg_${hex(24)}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [
            {
              type: 'thinking',
              thinking: placeNeedle(1, prose(100 + Math.floor(rand() * 600))),
              signature: hex(64),
            },
            { type: 'text', text: prose(80 + Math.floor(rand() * 500)) },
            {
              type: 'tool_use',
              id: callId,
              name: pick(['Read', 'Bash', 'Grep', 'Edit']),
              input: {
                command: placeNeedle(2, `${word()} ${word()} src/${word()}.ts`),
                description: sentence(4),
              },
            },
          ],
          stop_reason: 'tool_use',
          usage: {
            input_tokens: Math.floor(rand() * 4000),
            cache_creation_input_tokens: Math.floor(rand() * 2000),
            cache_read_input_tokens: Math.floor(rand() * 40_000),
            output_tokens: Math.floor(rand() * 1500),
          },
        },
      })
      push({
        ...envelope('user'),
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: callId,
              content: placeNeedle(3, code(300 + Math.floor(rand() ** 2 * 8000))),
              is_error: rand() < 0.05,
            },
          ],
        },
        toolUseResult: { stdout: '', stderr: '', interrupted: false },
      })
      turn++
    }
    push({ type: 'custom-title', customTitle: sentence(4), sessionId })
    const text = `${lines.join('\n')}\n`
    if (needle) needleFiles.push(file)
    bytes += Buffer.byteLength(text)
    await writeFile(file, text)
  }
  return { sessions: options.sessions, bytes, needleFiles }
}
