/**
 * The agent's tools. They do real work on a real directory, and every path they touch is validated and
 * resolved through the path cache first: the workspace boundary check on the hot path is what the cache
 * is for.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { PathCache } from '@sessiontape/fs-cache'
import type { ToolCall } from './script.js'

const MAX_READ_BYTES = 64 * 1024
const MAX_MATCHES = 50

export type ToolResult =
  { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: string }

export class Tools {
  readonly #root: string
  readonly #cache: PathCache

  constructor(root: string, cache: PathCache) {
    this.#root = root
    this.#cache = cache
  }

  async run(call: ToolCall): Promise<ToolResult> {
    try {
      switch (call.tool) {
        case 'list_files':
          return { ok: true, output: await this.#listFiles(call.path) }
        case 'read_file':
          return { ok: true, output: await this.#readFile(call.path) }
        case 'grep':
          return { ok: true, output: await this.#grep(call.path, call.pattern) }
        case 'write_file':
          return { ok: true, output: await this.#writeFile(call.path, call.content) }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      return { ok: false, error: code ? `${code}: ${(error as Error).message}` : String(error) }
    }
  }

  /** Resolves a tool's path argument, refusing anything that lands outside the workspace (symlinks included). */
  async #inWorkspace(path: string): Promise<string> {
    const target = resolve(this.#root, path)
    if (!(await this.#cache.isPathWithin(this.#root, target))) {
      throw new Error(`refused: ${path} is outside the workspace`)
    }
    return target
  }

  async #ignoredNames(): Promise<Set<string>> {
    const ignoreFile = await this.#cache.findInDir(this.#root, '.gitignore')
    if (ignoreFile === undefined) return new Set(['.git'])
    const lines = (await readFile(ignoreFile, 'utf8')).split('\n').map((line) => line.trim())
    return new Set(['.git', ...lines.filter((line) => line !== '' && !line.startsWith('#'))])
  }

  async #walk(dir: string, ignored: Set<string>, out: string[]): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (ignored.has(entry.name)) continue
      const full = join(dir, entry.name)
      if (entry.isDirectory()) await this.#walk(full, ignored, out)
      else if (entry.isFile()) out.push(full)
    }
  }

  async #listFiles(path: string): Promise<string[]> {
    const dir = await this.#inWorkspace(path)
    if (!(await this.#cache.isDirectory(dir))) throw new Error(`not a directory: ${path}`)
    const files: string[] = []
    await this.#walk(dir, await this.#ignoredNames(), files)
    return files.map((file) => relative(this.#root, file).split(sep).join('/')).sort()
  }

  async #readFile(path: string): Promise<{ path: string; size: number; text: string }> {
    const file = await this.#inWorkspace(path)
    const stat = await this.#cache.stat(file)
    if (!stat.isFile) throw new Error(`not a file: ${path}`)
    const text = (await readFile(file)).subarray(0, MAX_READ_BYTES).toString('utf8')
    return { path, size: stat.size, text }
  }

  async #grep(path: string, pattern: string): Promise<{ pattern: string; matches: string[] }> {
    const files = await this.#listFiles(path)
    const matches: string[] = []
    for (const file of files) {
      const lines = (await readFile(await this.#inWorkspace(file), 'utf8')).split('\n')
      lines.forEach((line, index) => {
        if (line.includes(pattern) && matches.length < MAX_MATCHES)
          matches.push(`${file}:${index + 1}: ${line}`)
      })
    }
    return { pattern, matches }
  }

  /**
   * Writes a file and proves the cache never kept the miss: `exists()` before the write asks the disk
   * and says no; the same question right after the write says yes.
   */
  async #writeFile(
    path: string,
    content: string,
  ): Promise<{ path: string; bytes: number; existedBefore: boolean; seenAfterWrite: boolean }> {
    const file = await this.#inWorkspace(path)
    const existedBefore = await this.#cache.exists(file)
    await mkdir(resolve(file, '..'), { recursive: true })
    await writeFile(file, content)
    // An overwrite changes size and mtime: drop what the cache knew about this path.
    this.#cache.invalidate(file)
    const seenAfterWrite = await this.#cache.exists(file)
    return { path, bytes: Buffer.byteLength(content), existedBefore, seenAfterWrite }
  }
}
