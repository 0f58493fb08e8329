/**
 * One `tail` line, fitted to the output's width: `<line or @offset>: <time> <type>: <text>`, cut with `…`
 * where it would wrap. Widths are terminal columns, not UTF-16 code units: a CJK character or an emoji takes
 * two (string-width's East Asian Width and emoji rules), a combining mark none. The cut falls between
 * grapheme clusters (`Intl.Segmenter`), so it never splits a surrogate pair, an emoji sequence or a letter
 * from its accents, and it is made before our colours are added, so it never falls inside an escape
 * sequence. Everything from the transcript is escaped (display-text.ts) before it is measured.
 */
import stringWidth from 'string-width'
import type { SessionRecord } from '@sessiontape/recorder'
import { displayLine } from '../display-text.js'
import { bodyText, shortTime } from '../format-record.js'
import { plainStyle, type Style } from '../style.js'

const ELLIPSIS = '…'
/**
 * Code units of a record's text looked at per column of output. A column holds at most a few code units
 * (an emoji ZWJ sequence: up to 11 for 2 columns, accents: 2–3 for 1), so 8 fills the line in practice and
 * keeps the work per line bounded whatever the record's size.
 */
const UNITS_PER_COLUMN = 8

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

interface Segment {
  /** Plain text, already escaped. */
  readonly text: string
  readonly style: (text: string) => string
}

/** The record's text on one line: whitespace runs collapsed, bounded to what `columns` can show. */
function preview(record: SessionRecord, columns: number): string {
  const body = bodyText(record)
  const budget = columns * UNITS_PER_COLUMN
  let text = body.length > budget ? body.slice(0, budget) : body
  // A slice can end inside a grapheme (half a surrogate pair, an emoji without its modifier): drop that
  // last cluster, and say the text goes on.
  if (text.length < body.length) {
    const clusters = [...graphemes.segment(text)]
    text = `${text.slice(0, clusters.at(-1)?.index ?? 0)}${ELLIPSIS}`
  }
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * The segments laid out in at most `columns` columns: all of them when they fit; otherwise each whole while
 * it fits in `columns - 1`, then the one that does not, cut at the last grapheme cluster that fits, and `…`
 * (so a cut line always says it was cut), and nothing after it.
 */
export function fitToColumns(segments: readonly Segment[], columns: number): string {
  const widths = segments.map(({ text }) => stringWidth(text))
  if (widths.reduce((sum, width) => sum + width, 0) <= columns)
    return segments.map(({ text, style }) => style(text)).join('')
  let out = ''
  let room = columns - 1
  for (const [index, { text, style }] of segments.entries()) {
    if (widths[index]! <= room) {
      out += style(text)
      room -= widths[index]!
      continue
    }
    let kept = ''
    for (const { segment } of graphemes.segment(text)) {
      const width = stringWidth(segment)
      if (width > room) break
      kept += segment
      room -= width
    }
    return out + style(`${kept}${ELLIPSIS}`)
  }
  return out
}

const plain = (text: string): string => text

/** A `tail` line of one record, at most `columns` wide (colours do not count). */
export function formatTailLine(
  where: string,
  record: SessionRecord,
  columns: number,
  style: Style = plainStyle,
): string {
  const text = preview(record, columns)
  const segments: Segment[] = [
    { text: `${where}: `, style: plain },
    { text: shortTime(record.timestamp), style: style.dim },
    { text: ' ', style: plain },
    { text: displayLine(record.type), style: style.type },
  ]
  if (text !== '') segments.push({ text: `: ${displayLine(text)}`, style: plain })
  return fitToColumns(segments, columns)
}
