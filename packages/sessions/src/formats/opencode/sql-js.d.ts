// The part of sql.js (a CommonJS module whose export is its initialiser) this folder uses.
declare module 'sql.js' {
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
