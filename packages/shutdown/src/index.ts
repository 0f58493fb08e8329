export { SIGNAL_NUMBERS, exitCodeForSignal, type ShutdownSignal } from './exit-codes.js'
