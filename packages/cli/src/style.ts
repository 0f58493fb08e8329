/** How the CLI colours its human output: real colours only on a terminal, never in `--json`. */
export interface Style {
  readonly dim: (text: string) => string
  readonly warn: (text: string) => string
  readonly type: (text: string) => string
  readonly bold: (text: string) => string
}

const identity = (text: string): string => text

export const plainStyle: Style = { dim: identity, warn: identity, type: identity, bold: identity }

// SGR sequences are ours, wrapped around text that was already made safe (display-text.ts).
const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`

export const colorStyle: Style = { dim: sgr(2, 22), warn: sgr(33, 39), type: sgr(36, 39), bold: sgr(1, 22) }

/**
 * Whether to colour: `NO_COLOR` (any non-empty value) turns it off, `FORCE_COLOR` (non-empty, not `0`) on,
 * otherwise only when the output is a terminal (https://no-color.org, https://force-color.org).
 */
export function wantsColor(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  const force = env.FORCE_COLOR
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false'
  return isTty
}
