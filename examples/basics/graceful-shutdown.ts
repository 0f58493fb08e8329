// Cleanups run once on exit, each bounded, in reverse order of registration, with a report at the end.
// Try it: run it and press Ctrl-C within two seconds, or pipe it into `head -1`.
import { setTimeout as sleep } from 'node:timers/promises'
import {
  formatReport,
  gracefulExit,
  guardEpipe,
  installSignalHandlers,
  registerCleanup,
  setReportHandler,
} from '@sessiontape/shutdown'

guardEpipe(process.stdout)
installSignalHandlers()
setReportHandler((report) => process.stderr.write(`${formatReport(report)}\n`))

registerCleanup(async () => sleep(50), { name: 'flush-transcript', phase: 'last' })
registerCleanup(async ({ signal }) => sleep(10_000, undefined, { signal }), {
  name: 'slow-exporter',
  timeoutMs: 300,
})
registerCleanup(
  () => {
    throw new Error('socket already closed')
  },
  { name: 'close-socket' },
)

for (let line = 0; line < 20; line++) {
  process.stdout.write(`working… ${line}\n`)
  await sleep(100)
}
await gracefulExit(0)
