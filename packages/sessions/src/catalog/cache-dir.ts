import os from 'node:os'
import path from 'node:path'

/**
 * Where the catalog and search index live: `$SESSIONTAPE_CACHE_DIR`, else `$XDG_CACHE_HOME/sessiontape`,
 * else `~/.cache/sessiontape` — never an agent's own directory (those are read-only to us). A relative
 * value is ignored, as the XDG Base Directory spec says for `XDG_CACHE_HOME`.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const own = env.SESSIONTAPE_CACHE_DIR
  if (own !== undefined && path.isAbsolute(own)) return own
  const xdg = env.XDG_CACHE_HOME
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'sessiontape')
  return path.join(home, '.cache', 'sessiontape')
}
