import { describe, expect, it } from 'vitest'
import { renderEvents } from '../src/index.js'
import { wholePage, ISLAND_TURNS } from '../src/export/html.js'
import { pageMeta, turnBuilder } from '../src/export/render.js'
import type { Turn } from '../src/export/turns.js'
import type { ConversationEvent } from '../src/model.js'
import { hostileSession, rewoundAnswer } from './fixtures/hostile-events.js'

/** A string past this many bytes is a large object in V8 (its own memory mapping): writes stay under it. */
const V8_LARGE_OBJECT_BYTES = 128 * 1024

async function streamed(events: readonly ConversationEvent[]): Promise<string[]> {
  const chunks: string[] = []
  await renderEvents(events, { format: 'html', activeOnly: false, onBranch: rewoundAnswer }, (chunk) => {
    chunks.push(chunk)
  })
  return chunks
}

/** The page built at once from the same turns: what the streamed export must equal byte for byte. */
function builtWhole(events: readonly ConversationEvent[]): string {
  const builder = turnBuilder({ activeOnly: false, onBranch: rewoundAnswer })
  const turns: Turn[] = []
  for (const event of events) {
    const done = builder.push(event)
    if (done !== undefined) turns.push(done)
  }
  const last = builder.finish()
  if (last !== undefined) turns.push(last)
  return wholePage(
    { title: 'Session · sessiontape' },
    turns,
    pageMeta(builder.facts, builder.total, { problems: 0 }),
  )
}

describe('a streamed HTML export', () => {
  it('is the page built whole, written in pieces under V8’s large-object size', async () => {
    const { events } = hostileSession(3 * ISLAND_TURNS + 7)
    // One turn far past the limit on its own: only the write holding it may be that long.
    const huge = '<b>&'.repeat(100_000)
    const at = events.findIndex((event) => event.kind === 'tool-result')
    events.splice(at + 1, 0, {
      kind: 'tool-result',
      id: 'huge',
      line: 0,
      raw: {},
      callId: 'no-such-call',
      output: huge,
      isError: false,
    })
    const chunks = await streamed(events)
    expect(chunks.join('')).toBe(builtWhole(events))
    const long = chunks.filter((chunk) => chunk.length * 2 >= V8_LARGE_OBJECT_BYTES)
    expect(long).toHaveLength(1)
    expect(long[0]).toContain('\\u003cb\\u003e\\u0026'.repeat(100_000))
    // Islands of ISLAND_TURNS turns, the script once, after the first.
    const page = chunks.join('')
    expect(page.match(/<script type="application\/json" class="st-turns">/g)).toHaveLength(4)
    expect(page.indexOf('<script>')).toBeGreaterThan(page.indexOf('class="st-turns"'))
    expect(page.indexOf('<script>')).toBeLessThan(page.indexOf('class="st-turns"', page.indexOf('<script>')))
  })

  it('of a session with no turns is the empty page built whole', async () => {
    expect((await streamed([])).join('')).toBe(builtWhole([]))
  })
})
