import type { UsageEvent } from '../model.js'

/**
 * Checks one file's requests against the agent's own running total (`UsageEvent.agentTotal`, Codex's
 * `total_token_usage`): the total's growth from before the first request to after the last must equal the
 * input and output of the requests counted. The growth, not the total: a continued thread's rollout starts
 * from the previous one's total.
 */
export class AgentTotalCheck {
  #start: { input: number; output: number } | undefined
  #last: { input: number; output: number; line: number } | undefined
  #counted = { input: 0, output: 0 }

  see(event: UsageEvent): void {
    const total = event.agentTotal
    if (total === undefined) return
    this.#start ??= {
      input: total.inputTokens - event.usage.inputTokens,
      output: total.outputTokens - event.usage.outputTokens,
    }
    this.#last = { input: total.inputTokens, output: total.outputTokens, line: event.line }
    this.#counted.input += event.usage.inputTokens
    this.#counted.output += event.usage.outputTokens
  }

  /** What differs, as a person reads it, with the line of the last total; undefined when they agree. */
  difference(): { line: number; value: string } | undefined {
    if (this.#start === undefined || this.#last === undefined) return undefined
    const input = this.#last.input - this.#start.input
    const output = this.#last.output - this.#start.output
    if (input === this.#counted.input && output === this.#counted.output) return undefined
    return {
      line: this.#last.line,
      value:
        `the total grew by input ${input}, output ${output}; ` +
        `the requests counted hold input ${this.#counted.input}, output ${this.#counted.output}`,
    }
  }
}
