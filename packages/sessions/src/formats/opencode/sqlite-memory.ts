import type { SqlJsDatabase, SqlJsStatic } from 'sql.js/dist/sql-wasm-inline.js'

/**
 * SQLite compiled to WebAssembly (sql.js), loaded on first use so that importing this package loads nothing.
 * Its build with the WebAssembly inlined (base64 in the JS): the default build reads `sql-wasm.wasm` from
 * beside its own file, which a bundle such as the CLI's does not have (it then aborted the process). An image
 * opened here lives in sql.js's in-memory file system: nothing it does reaches the disk.
 */
let loading: Promise<SqlJsStatic> | undefined

async function sqlJs(): Promise<SqlJsStatic> {
  loading ??= import('sql.js/dist/sql-wasm-inline.js').then((module) => module.default())
  try {
    return await loading
  } catch (error) {
    // A failed load (a missing .wasm file) is not cached: the next call tries again.
    loading = undefined
    throw error
  }
}

/** An image opened in memory, for the duration of `use`; closed (its memory freed) whatever happens. */
export async function withImage<T>(image: Uint8Array, use: (db: MemoryDb) => T): Promise<T> {
  const SQL = await sqlJs()
  const db = new SQL.Database(image)
  try {
    return use(new MemoryDb(db))
  } finally {
    db.close()
  }
}

/** The queries this folder runs: every row of a statement as a plain object. */
export class MemoryDb {
  readonly #db: SqlJsDatabase

  constructor(db: SqlJsDatabase) {
    this.#db = db
  }

  rows(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    const statement = this.#db.prepare(sql)
    try {
      if (params.length > 0) statement.bind(params)
      const out: Record<string, unknown>[] = []
      while (statement.step()) out.push(statement.getAsObject())
      return out
    } finally {
      statement.free()
    }
  }
}
