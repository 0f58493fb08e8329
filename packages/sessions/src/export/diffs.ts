/**
 * File edits shown as diffs: Claude Code's Edit / MultiEdit / Write, Codex's `apply_patch`, Gemini CLI's
 * `replace` / `write_file`, Qwen Code's `edit` / `write_file`. A diff is text whose every line starts with
 * `+` (added), `-` (removed), ` ` (kept) or is a header (`@@ <file>`, or a patch's own `*** …` lines); the
 * page colours lines by that first character and Markdown puts the text in a ```diff fence. Hand-written
 * (a longest-common-subsequence over lines, ~30 lines) rather than a dependency: the edits are the agent's
 * own `old_string`/`new_string`, a few lines each, and the bound below keeps any pair cheap.
 */
import { objectOf } from '../formats/mapper.js'

/** The most line pairs a diff compares; beyond it, the old lines are shown removed and the new ones added. */
const MAX_DIFF_CELLS = 1_000_000

function lines(text: string): string[] {
  if (text === '') return []
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
}

/** `old` → `new` as diff lines (`-`, `+`, ` `). */
export function lineDiff(oldText: string, newText: string): string[] {
  const a = lines(oldText)
  const b = lines(newText)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const out = a.slice(0, start).map((l) => ` ${l}`)
  const n = endA - start
  const m = endB - start
  if (n * m > MAX_DIFF_CELLS) {
    for (let i = start; i < endA; i++) out.push(`-${a[i]}`)
    for (let j = start; j < endB; j++) out.push(`+${b[j]}`)
  } else {
    // lcs[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i]![j] =
          a[start + i] === b[start + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        out.push(` ${a[start + i++]}`)
        j++
      } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`-${a[start + i++]}`)
      else out.push(`+${b[start + j++]}`)
    }
  }
  for (let i = endA; i < a.length; i++) out.push(` ${a[i]}`)
  return out
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** The patch text of an `apply_patch` call, in any of the shapes Codex records it. */
function patchOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input
  const args = objectOf(input)
  const command = args?.command
  if (Array.isArray(command) && command[0] === 'apply_patch') return str(command[1])
  return str(args?.input) ?? str(args?.patch)
}

/** A tool call's edit as a diff, and its input without the edited text (shown once, in the diff). */
export function editDiff(
  name: string,
  input: unknown,
): { readonly diff: string; readonly input: unknown } | undefined {
  // `apply_patch` as its own tool, or run through Codex's shell tool as `["apply_patch", "<patch>"]`.
  const shell = objectOf(input)?.command
  if (name === 'apply_patch' || (Array.isArray(shell) && shell[0] === 'apply_patch')) {
    const patch = patchOf(input)
    if (patch === undefined || !patch.includes('*** ')) return undefined
    return { diff: patch.replace(/\n$/, ''), input: {} }
  }
  const args = objectOf(input)
  if (args === undefined) return undefined
  const file = str(args.file_path) ?? str(args.path) ?? str(args.absolute_path) ?? ''
  const header = `@@ ${file}`
  const { old_string: oldString, new_string: newString, content, edits, ...rest } = args
  if (
    ['Edit', 'replace', 'edit'].includes(name) &&
    str(oldString) !== undefined &&
    str(newString) !== undefined
  )
    return { diff: [header, ...lineDiff(oldString as string, newString as string)].join('\n'), input: rest }
  if (name === 'MultiEdit' && Array.isArray(edits)) {
    const out = [header]
    for (const item of edits) {
      const edit = objectOf(item)
      const before = str(edit?.old_string)
      const after = str(edit?.new_string)
      if (before === undefined || after === undefined) return undefined
      if (out.length > 1) out.push('@@')
      out.push(...lineDiff(before, after))
    }
    return { diff: out.join('\n'), input: rest }
  }
  if (['Write', 'write_file'].includes(name) && str(content) !== undefined)
    return { diff: [header, ...lineDiff('', content as string)].join('\n'), input: rest }
  return undefined
}
