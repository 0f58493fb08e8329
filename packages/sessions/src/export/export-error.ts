/** An export that cannot be done as asked (its `out` is the transcript, or not a regular file). */
export class ExportError extends Error {
  override readonly name = 'ExportError'
  readonly code: 'ERR_EXPORT_OUT'

  constructor(code: 'ERR_EXPORT_OUT', message: string) {
    super(message)
    this.code = code
  }
}
