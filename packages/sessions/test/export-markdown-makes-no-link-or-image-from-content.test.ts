import { describe, expect, it } from 'vitest'
import { renderEvents } from '../src/index.js'
import type { ConversationEvent } from '../src/model.js'

/** Markdown that a renderer would make into links, images or raw HTML, as content can carry it. */
const LINKY: readonly string[] = [
  '[click](javascript:alert(1))',
  '![track](https://evil.example/pixel.png)',
  '[a](<javascript:alert(2)>)',
  '[ref link][r]\n\n[r]: javascript:alert(3)',
  '\\[escaped in content](javascript:alert(4))',
  '\\\\[double backslash](data:text/html,<script>alert(5)</script>)',
  '<https://evil.example/autolink>',
  'see www.evil.example/x and https://evil.example/bare and mailto:a@evil.example',
  'write to someone@evil.example',
  'a `code` then [x](https://evil.example)',
  '```\n[in a fence](javascript:alert(6))\n```\nafter [x](javascript:alert(7))',
  '[![nested](https://evil.example/i.png)](https://evil.example)',
]

async function markdown(events: ConversationEvent[]): Promise<string> {
  let out = ''
  await renderEvents(events, { format: 'md', activeOnly: false }, (chunk) => {
    out += chunk
  })
  return out
}

/**
 * What a CommonMark/GFM renderer reads as prose: the document without its fenced blocks and code spans
 * (in both, every character is literal).
 */
function prose(md: string): string {
  const noFences = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\n/gm, '')
  return noFences.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ' ')
}

describe('Markdown export', () => {
  it('makes no link, image or autolink from content: brackets escaped, URLs in code spans', async () => {
    const events: ConversationEvent[] = []
    LINKY.forEach((text, i) => {
      events.push({ kind: 'user', id: `u${i}`, line: i * 3 + 1, raw: {}, text })
      events.push({
        kind: 'assistant',
        id: `a${i}`,
        line: i * 3 + 2,
        raw: {},
        text,
        model: text,
      })
      events.push({
        kind: 'marker',
        id: `m${i}`,
        line: i * 3 + 3,
        raw: {},
        marker: 'notice',
        text,
      })
    })
    events.push({
      kind: 'title',
      id: 't',
      line: 99,
      raw: {},
      title: LINKY[0]!,
      source: 'set',
    })
    const md = await markdown(events)
    const text = prose(md)
    // Every [ and ] of prose is escaped (an odd run of backslashes before it): no link or image can open.
    for (const match of text.matchAll(/(\\*)([[\]])/g))
      expect(match[1]!.length % 2, match.input.slice(match.index - 30, match.index + 30)).toBe(1)
    expect(text).not.toMatch(/<[a-z!/]/i)
    // Nothing an autolinker picks up is left in prose.
    expect(text).not.toMatch(/:\/\/|www\.|@evil\.example/)
    // …and every URL is still there to read, in a code span.
    expect(md).toContain('` https://evil.example/bare `')
    expect(md).toContain('` www.evil.example/x `')
    expect(md).toContain('` someone@evil.example `')
  })
})
