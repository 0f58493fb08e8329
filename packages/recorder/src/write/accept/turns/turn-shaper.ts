import type { WriterProfile } from '../../../options.js'
import { claudeCodeRecords } from './claude-code.js'
import { codexSessionMeta, CodexShapes } from './codex.js'
import { isoTimestamp } from '../../../util/iso-timestamp.js'
import { QwenCodeShapes } from './qwen-code.js'
import { sessiontapeRecords } from './sessiontape.js'
import { checkTurn, type Turn, type TurnRecord } from './turn.js'

/** Maps turns onto the records of one writer profile (validated first: a bad turn records nothing). */
export class TurnShaper {
  readonly #shape: (turn: Turn) => TurnRecord[]
  readonly #profile: WriterProfile
  readonly #fields: Readonly<Record<string, unknown>> | undefined
  readonly #sessionId: string

  constructor(
    profile: WriterProfile,
    fields: Readonly<Record<string, unknown>> | undefined,
    sessionId: string,
  ) {
    this.#profile = profile
    this.#fields = fields
    this.#sessionId = sessionId
    const cwd = typeof fields?.cwd === 'string' ? fields.cwd : process.cwd()
    switch (profile) {
      case 'sessiontape':
        this.#shape = (turn) => [sessiontapeRecords(turn)]
        break
      case 'claude-code':
        this.#shape = claudeCodeRecords
        break
      case 'qwen-code': {
        const qwen = new QwenCodeShapes()
        this.#shape = (turn) => qwen.recordsOf(turn)
        break
      }
      case 'codex': {
        const codex = new CodexShapes(cwd)
        this.#shape = (turn) => codex.recordsOf(turn)
        break
      }
    }
  }

  /** What a new transcript of this profile starts with: Codex's `session_meta`, nothing for the others. */
  openingRecords(): TurnRecord[] {
    if (this.#profile !== 'codex') return []
    const now = isoTimestamp()
    return [{ ...codexSessionMeta(this.#sessionId, this.#fields, now), timestamp: now }]
  }

  recordsOf(turn: Turn): TurnRecord[] {
    checkTurn(turn)
    return this.#shape(turn)
  }
}
