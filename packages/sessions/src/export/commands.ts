/**
 * Claude Code writes a slash command, its local output, and a `!` shell command as user messages made of
 * tags: `<command-name>/model</command-name><command-message>model</command-message><command-args>…
 * </command-args>`, then `<local-command-stdout>…</local-command-stdout>` (or `-stderr`), and for `!`
 * `<bash-input>`, `<bash-stdout>`, `<bash-stderr>`. A message made of these tags only is shown as the
 * command it is; any other text around them keeps the message as text (nothing is hidden).
 */

export interface Command {
  /** The command as typed: `/model`, or `!` and the shell command. */
  readonly name?: string
  readonly args?: string
  /** What it printed, stdout then stderr. */
  readonly out?: string
  /** It printed to stderr. */
  readonly isError?: boolean
}

const TAGS = [
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
] as const
type Tag = (typeof TAGS)[number]

const TAG = new RegExp(`<(${TAGS.join('|')})>([\\s\\S]*?)</\\1>`, 'g')

/** The command a message's text is made of, or undefined when it holds anything else. */
export function commandOf(text: string): Command | undefined {
  if (!text.includes('<')) return undefined
  const found = new Map<Tag, string>()
  let rest = ''
  let at = 0
  TAG.lastIndex = 0
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    rest += text.slice(at, m.index)
    at = m.index + m[0].length
    const tag = m[1] as Tag
    found.set(tag, (found.get(tag) ?? '') + m[2]!)
  }
  rest += text.slice(at)
  if (found.size === 0 || rest.trim() !== '') return undefined
  const bash = found.get('bash-input')
  const name = bash !== undefined ? `!${bash}` : found.get('command-name')?.trim()
  const args = found.get('command-args') ?? found.get('command-contents')
  const stdout = found.get('local-command-stdout') ?? found.get('bash-stdout') ?? ''
  const stderr = found.get('local-command-stderr') ?? found.get('bash-stderr') ?? ''
  const out = [stdout, stderr].filter((s) => s.trim() !== '').join('\n')
  const command: { name?: string; args?: string; out?: string; isError?: boolean } = {}
  if (name !== undefined && name !== '') command.name = name
  if (args !== undefined && args.trim() !== '') command.args = args.trim()
  if (out !== '' || command.name === undefined) command.out = out
  if (stderr.trim() !== '') command.isError = true
  return command
}
