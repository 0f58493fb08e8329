// The import rule `pnpm lint` runs beside ESLint: no import circle in any package's src/, type-only imports
// included (a type-only circle still ties two files' designs together). dependency-cruiser, because the
// ESLint rules for this (import-x's and eslint-plugin-import's no-cycle) skip `import type` and cannot be told not to.
const WRITE = '^packages/recorder/src/write/'
// The one circle left outside write/ (reported from either file): session-rows.ts takes the type
// SessionUsage from summarize-usage.ts, which imports session-rows.ts. The fix is SessionUsage in a file of
// its own; summarize-usage.ts is being changed by this round's usage work, which does it and removes this.
const USAGE_ROWS = '^packages/sessions/src/usage/(session-rows|summarize-usage)[.]ts$'

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Arrows point down only (docs/architecture.md): an import circle is a layer that knows its caller.',
      from: { pathNot: [WRITE, USAGE_ROWS] },
      to: { circular: true },
    },
    {
      // Being rewritten by the seal-and-roll issue (41 b): circles among write/'s own files are let be until
      // then; a circle that leaves write/ is not.
      name: 'no-circular-out-of-write',
      severity: 'error',
      from: { path: WRITE },
      to: { circular: true, pathNot: WRITE },
    },
  ],
  options: {
    // `import type` and type-only re-exports count: they are circles in the design even when erased.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['/dist/', '/node_modules/'] },
    enhancedResolveOptions: {
      // The packages' own source condition (STYLE.md): workspace imports resolve to src/, like the tests.
      conditionNames: ['@sessiontape/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.json'],
      exportsFields: ['exports'],
      mainFields: ['types', 'main'],
    },
  },
}
