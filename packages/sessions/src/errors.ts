/** A bad argument to one of this package's functions: thrown at the call, before any file is read. */
export class SessionsArgumentError extends TypeError {
  override readonly name: string = 'SessionsArgumentError'
  readonly code = 'ERR_SESSIONS_INVALID_ARGUMENT'
}
