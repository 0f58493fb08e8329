import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** A small real project for the tools to work on when the user names none. */
const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# sample-project\n\nA tiny project the example agent explores.\n',
  '.gitignore': 'node_modules\ndist\n',
  'src/index.ts': "export { greet } from './util.js'\n// TODO: add a farewell\n",
  'src/util.ts': 'export function greet(name: string): string {\n  return `hello ${name}`\n}\n',
  'docs/notes.md': 'The recorder must flush before exit.\n',
}

/**
 * Creates the sample project under `root` unless it is already there: a resumed session keeps working on
 * the files the earlier run left behind.
 */
export async function ensureSampleWorkspace(root: string): Promise<void> {
  const exists = await stat(root).then(
    () => true,
    () => false,
  )
  if (exists) return
  for (const [relative, content] of Object.entries(SAMPLE_FILES)) {
    const target = join(root, relative)
    await mkdir(join(target, '..'), { recursive: true })
    await writeFile(target, content)
  }
}
