import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { CliError, ExitCode } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  stringOption,
  type Command,
} from '../command.js'
import { describeStatError } from '../targets.js'

/**
 * Opens `file` (the viewer's launch file, which sends the browser to the page) in the desktop's browser,
 * detached: `$BROWSER` when set (a program given the file's path, as xdg-open and Python's webbrowser read
 * it), else the platform's opener. The page's URL is never an argument: every local user can read a
 * process's command line (/proc/<pid>/cmdline), and the URL carries the launch's secret. A desktop without
 * a browser is not an error (the URL is printed). node:child_process is loaded here, not at import: a bundle
 * hoists static imports of Node's modules to its top, and every other command paid for it.
 */
async function openBrowser(file: string): Promise<void> {
  const { spawn } = await import('node:child_process')
  const browser = process.env.BROWSER
  const [command, args] =
    browser !== undefined && browser !== ''
      ? [browser, [file]]
      : process.platform === 'darwin'
        ? ['open', [file]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '', file]]
          : ['xdg-open', [file]]
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' })
    child.on('error', () => {
      // No opener on this machine: the URL on stdout is how to get there.
    })
    child.unref()
  } catch {
    // As above: opening is a convenience.
  }
}

export const viewCommand: Command = {
  name: 'view',
  summary: 'serve a session (or a folder of sessions) to the browser on 127.0.0.1, following it live',
  usage: 'view <file-or-dir> [--port <n>] [--no-open] [--format <f>]',
  description: `
Serves the export's page on 127.0.0.1 (never another address) and prints its URL as the first line
of stdout (with --json, that line is {"url": "…"}). The URL carries a secret made for this launch:
every request needs it (then a cookie), so other users of the machine get 401; keep the URL to
yourself. The browser is opened ($BROWSER, else the desktop's opener) on a private file that
redirects to it, never with the URL on its command line. Given a folder, it lists the sessions
under it (title, agent, dates, size), newest first. A session's page comes with its first turns and
gets the rest as the file is read, so a long session shows at once. The page follows the session
live (only appended bytes are read): records appended to it appear within a second, without a
reload; a rewind marks the abandoned turns as a side branch; a last line still being written shows
as pending, never as an error; a file cut shorter or replaced is shown again from its start, never
mixed with the other. Lines over 16 MiB are skipped and counted as problems. Nothing is written but
the private file the browser is opened on (removed at the end). Runs until Ctrl-C.
`,
  options: [
    { name: 'port', short: 'p', value: '<n>', help: 'the port to listen on (default 0: a free one)' },
    { name: 'no-open', help: 'do not open a browser' },
    FORMAT_OPTION,
  ],
  exitCodes: '0 stopped, 2 unreadable input, a port in use or a bad command line; Ctrl-C ends it by SIGINT.',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(viewCommand, args)
    expectPositionals('view', positionals, 1)
    const format = formatOption('view', values.format)
    const portText = stringOption(values.port) ?? '0'
    const port = Number(portText)
    if (!/^\d+$/.test(portText) || port > 65535) {
      throw new CliError(
        `sessiontape view: expected --port to be 0–65535, got ${JSON.stringify(portText)}`,
        ExitCode.UNREADABLE,
        'ERR_USAGE',
      )
    }
    const target = positionals[0]
    if (target === undefined)
      throw new CliError(
        'sessiontape view: expected a transcript file or a folder. Run `sessiontape view --help`.',
      )
    try {
      await stat(target)
    } catch (error) {
      throw new CliError(
        `sessiontape view: ${describeStatError(target, error as NodeJS.ErrnoException, 'file or folder')}`,
        ExitCode.UNREADABLE,
        'ERR_UNREADABLE',
      )
    }
    // Loaded on use: every other command starts without the viewer.
    const { startViewer } = await import('@sessiontape/sessions')
    const viewer = await startViewer(resolve(target), { port, format }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE')
          throw new CliError(
            `sessiontape view: port ${port} on 127.0.0.1 is in use`,
            ExitCode.UNREADABLE,
            'EADDRINUSE',
          )
        throw error
      },
    )
    // One line either way: a script reads the first line as soon as it arrives, and the server keeps running.
    io.out(values.json === true ? `${JSON.stringify({ url: viewer.url })}\n` : `${viewer.url}\n`)
    if (values['no-open'] !== true) await openBrowser(await viewer.launchFile())
    if (!io.signal.aborted)
      await new Promise<void>((resolve) =>
        io.signal.addEventListener('abort', () => resolve(), { once: true }),
      )
    await viewer.close()
    return ExitCode.OK
  },
}
