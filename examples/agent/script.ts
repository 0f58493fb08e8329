/**
 * The scripted "model": no network, no weights. Each turn is a user prompt, an assistant reply that asks
 * for one tool, and (after the tool ran) a short assistant wrap-up. A seed picks the sequence, so two runs
 * with the same seed do the same work — the end-to-end tests rely on that.
 */

export type ToolCall =
  | { readonly tool: 'list_files'; readonly path: string }
  | { readonly tool: 'read_file'; readonly path: string }
  | { readonly tool: 'grep'; readonly path: string; readonly pattern: string }
  | { readonly tool: 'write_file'; readonly path: string; readonly content: string }

export interface ScriptedTurn {
  readonly prompt: string
  readonly reply: string
  readonly call: ToolCall
  readonly wrapUp: string
}

/** Small, fast, deterministic PRNG (mulberry32): plenty for picking scripted turns. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const GREP_PATTERNS = ['export', 'TODO', 'function', 'recorder', 'flush'] as const
const READ_TARGETS = ['README.md', 'src/index.ts', 'src/util.ts', 'docs/notes.md'] as const

/** Turn number `turn` (0-based) of the script for `seed`. `padBytes` fattens replies for heavy runs. */
export function scriptedTurn(random: () => number, turn: number, padBytes = 0): ScriptedTurn {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const pad = padBytes > 0 ? ` ${'·'.repeat(padBytes)}` : ''
  switch (turn % 4) {
    case 0:
      return {
        prompt: `Turn ${turn}: what is in this project?`,
        reply: `Let me list the workspace.${pad}`,
        call: { tool: 'list_files', path: '.' },
        wrapUp: 'That is the layout of the project.',
      }
    case 1: {
      const path = pick(READ_TARGETS)
      return {
        prompt: `Turn ${turn}: show me ${path}`,
        reply: `Reading ${path}.${pad}`,
        call: { tool: 'read_file', path },
        wrapUp: `That was ${path}.`,
      }
    }
    case 2: {
      const pattern = pick(GREP_PATTERNS)
      return {
        prompt: `Turn ${turn}: where do we use "${pattern}"?`,
        reply: `Searching for ${pattern}.${pad}`,
        call: { tool: 'grep', path: '.', pattern },
        wrapUp: `Those are the matches for ${pattern}.`,
      }
    }
    default:
      return {
        prompt: `Turn ${turn}: write down what we learned`,
        reply: `Writing notes/turn-${turn}.md.${pad}`,
        call: {
          tool: 'write_file',
          path: `notes/turn-${turn}.md`,
          content: `# Turn ${turn}\n\nNotes.${pad}\n`,
        },
        wrapUp: `Saved notes/turn-${turn}.md.`,
      }
  }
}
