/**
 * Who may use a viewer: whoever holds the secret it made at launch. A loopback port is open to every local
 * user, and a session file is usually theirs alone (0600), so every request must carry the secret:
 *
 * - the first one in its URL (`?token=…`, the URL the viewer prints or the private file that redirects to
 *   it): answered with a cookie holding the secret and a redirect to the same URL without it, so the secret
 *   leaves the address bar and the history;
 * - every later one (the page, its event stream, the folder's other sessions) by that cookie:
 *   `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it), `Path=/`. Its name
 *   carries the port: cookies are shared by every port of a host, and two viewers must not overwrite each
 *   other's.
 *
 * Anything else gets 401. Secrets are compared in constant time (their SHA-256 digests, which have equal
 * lengths whatever was sent, through timingSafeEqual): the time an answer takes tells nothing about how
 * much of a guess was right.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes: 256 bits, twice what an online guess would have to beat. */
const TOKEN_BYTES = 32
/** The query parameter that carries the secret on the first request. */
export const TOKEN_PARAM = 'token'

/** What a request may do. */
export type Access =
  /** Carries a valid cookie. */
  | { readonly kind: 'allowed' }
  /** Carries the secret in its URL: set the cookie, redirect to `location`. */
  | { readonly kind: 'grant'; readonly location: string }
  | { readonly kind: 'denied' }

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

export class AccessGate {
  /** The secret, base64url: safe in a URL and in a cookie value as it is. */
  readonly token: string = randomBytes(TOKEN_BYTES).toString('base64url')
  /** What candidates are compared with: the secret's digest, made once. */
  readonly #digest: Buffer = digest(this.token)
  /** The server's port, known once it listens (0 before: no request arrives before then). */
  #port = 0

  /** Names the cookie after the port the server got. */
  listening(port: number): void {
    this.#port = port
  }

  get cookieName(): string {
    return `sessiontape-view-${this.#port}`
  }

  /** The header that hands the secret to the browser. A session cookie: it ends with the browser. */
  setCookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`
  }

  /** `path` (a path and query of this server) with the secret: what a user is given to open. */
  withToken(path: string): string {
    return `${path}${path.includes('?') ? '&' : '?'}${TOKEN_PARAM}=${this.token}`
  }

  check(url: URL, cookieHeader: string | undefined): Access {
    const offered = url.searchParams.getAll(TOKEN_PARAM)
    if (offered.length > 0) {
      if (!offered.every((candidate) => this.#matches(candidate))) return { kind: 'denied' }
      const clean = new URL(url.href)
      clean.searchParams.delete(TOKEN_PARAM)
      return { kind: 'grant', location: `${clean.pathname}${clean.search}` }
    }
    for (const part of (cookieHeader ?? '').split(';')) {
      const equals = part.indexOf('=')
      if (equals === -1 || part.slice(0, equals).trim() !== this.cookieName) continue
      if (this.#matches(part.slice(equals + 1).trim())) return { kind: 'allowed' }
    }
    return { kind: 'denied' }
  }

  #matches(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.#digest)
  }
}
