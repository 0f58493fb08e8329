/**
 * Every command's `--help` is rendered from its table (usage, description, option rows, exit codes), so
 * the option column lines up in every help and the options a command parses are exactly the ones its help
 * lists (command.ts builds the parser from the same rows).
 */

/** One option of a command: its parser entry and its help row. */
export interface OptionSpec {
  /** The long name, without dashes (`'lines'` for `--lines`). */
  readonly name: string
  /** One-letter alias, without the dash. */
  readonly short?: string
  /** Placeholder of the value (`'<n>'`); present = the option takes a value, absent = a boolean flag. */
  readonly value?: string
  /** What it does; wrapped to the help's width, continuation lines indented under the first. */
  readonly help: string
}

export interface HelpTable {
  /** After `Usage: sessiontape `, e.g. `list <dir> [--format <f>] [--json]`. */
  readonly usage: string
  /** Paragraphs between the usage line and the options (already wrapped by hand). */
  readonly description: string
  /** The command's own options (`--help` is added by every help). */
  readonly options: readonly OptionSpec[]
  /** After `Exit codes: `; wrapped to the help's width. */
  readonly exitCodes: string
}

/** Help lines stay readable on an 100-column terminal (the width the hand-wrapped descriptions use). */
const HELP_WIDTH = 100
const INDENT = '  '
const GAP = '  '

export const HELP_OPTION: OptionSpec = { name: 'help', short: 'h', help: 'show this help' }
/** Every command accepts `--json`; a table that does not describe it gets this row. */
export const JSON_OPTION: OptionSpec = { name: 'json', help: 'print the result as JSON' }

/** The rows a command's parser accepts and its help lists, in help order: its own, then --json, --help. */
export function allOptions(options: readonly OptionSpec[]): readonly OptionSpec[] {
  const json = options.some((option) => option.name === 'json') ? [] : [JSON_OPTION]
  return [...options, ...json, HELP_OPTION]
}

function label(option: OptionSpec): string {
  const names = option.short === undefined ? `--${option.name}` : `-${option.short}, --${option.name}`
  return option.value === undefined ? names : `${names} ${option.value}`
}

/** Greedy word wrap; a word longer than the width stays whole on its own line. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word
    else if (line.length + 1 + word.length <= width) line += ` ${word}`
    else {
      lines.push(line)
      line = word
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

/** The option rows, one aligned column of names and one of wrapped descriptions. */
export function optionRows(options: readonly OptionSpec[]): string {
  const labels = options.map(label)
  const column = Math.max(...labels.map((l) => l.length))
  const textWidth = Math.max(20, HELP_WIDTH - INDENT.length - column - GAP.length)
  const hanging = ' '.repeat(INDENT.length + column + GAP.length)
  return options
    .map((option, i) => {
      const [first = '', ...rest] = wrapWords(option.help, textWidth)
      const head = `${INDENT}${(labels[i] ?? '').padEnd(column)}${GAP}${first}`
      return [head, ...rest.map((line) => `${hanging}${line}`)].join('\n')
    })
    .join('\n')
}

/** A command's full `--help` text. */
export function renderHelp(table: HelpTable): string {
  const description = table.description.trim()
  const exitCodes = wrapWords(`Exit codes: ${table.exitCodes}`, HELP_WIDTH).join('\n')
  return `Usage: sessiontape ${table.usage}

${description}

Options:
${optionRows(allOptions(table.options))}

${exitCodes}
`
}
