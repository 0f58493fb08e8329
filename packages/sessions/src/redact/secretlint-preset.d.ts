// The preset's own .d.ts names @secretlint/types, which is not installed (a types-only package we do not need):
// this declares the part of the rule API the synchronous driver in secretlint-rules.ts uses.
declare module '@secretlint/secretlint-rule-preset-recommend' {
  interface RuleReport {
    readonly message: unknown
    readonly range: readonly [number, number]
  }
  interface RuleContext {
    report(report: RuleReport): void
    ignore(report: unknown): void
    createTranslator(messages: unknown): (id: string, props?: Record<string, unknown>) => unknown
  }
  interface RuleSource {
    readonly content: string
    readonly filePath: string
    readonly ext: string
    readonly contentType: 'text'
  }
  interface RuleCreator {
    readonly meta: { readonly id: string; readonly type?: string }
    create(context: RuleContext, options: Record<string, unknown>): { file?(source: RuleSource): unknown }
  }
  export const rules: readonly RuleCreator[]
}
