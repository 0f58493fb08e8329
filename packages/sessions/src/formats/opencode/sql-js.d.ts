// The part of sql.js (a CommonJS module whose export is its initialiser) this folder uses: its build with
// the WebAssembly inlined, so a bundle (the CLI's) needs no .wasm file beside it.
declare module 'sql.js/dist/sql-wasm-inline.js' {
  export interface SqlJsStatement {
    step(): boolean
    getAsObject(): Record<string, unknown>
    bind(values: readonly unknown[]): boolean
    free(): boolean
  }
  export interface SqlJsDatabase {
    prepare(sql: string): SqlJsStatement
    close(): void
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array) => SqlJsDatabase
  }
  const initSqlJs: (config?: Record<string, unknown>) => Promise<SqlJsStatic>
  export default initSqlJs
}
