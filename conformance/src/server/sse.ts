import type { ServerResponse } from 'node:http'

/** Starts a server-sent-events response. */
export function startSse(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers })
}

/** One event; `event` is omitted for APIs that send bare `data:` lines (Chat Completions, Gemini). */
export function sendEvent(res: ServerResponse, data: unknown, event?: string): void {
  const head = event === undefined ? '' : `event: ${event}\n`
  res.write(`${head}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** Splits a text in a few deltas, as a real stream sends it. */
export function chunks(text: string): string[] {
  const words = text.split(/(?<= )/)
  const out: string[] = []
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(''))
  return out.length === 0 ? [''] : out
}

/** Text parts of a message content that is a string or an array of `{ type, text }` parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('\n')
}

/** `value` as a record, or an empty one: request bodies are untrusted JSON. */
export function rec(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : []
}

/** `value` when it is a string, else `fallback`. */
export function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback
}
