// @ts-check
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '**/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'packages/*/bin/*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The promise rules are the reason this config exists: a dropped promise is a dropped record.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // A file that one reader can hold in mind (STYLE.md: one job per file). Every line counts, blank lines
    // and comments too: they are what a reader scrolls through, and the comments say why, so they stay.
    files: ['packages/*/src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Being rewritten by the seal-and-roll issue (41 b): these two write/ files are over 350 lines until then.
    files: [
      'packages/recorder/src/write/file/transcript.ts',
      'packages/recorder/src/write/queue/record-queue.ts',
    ],
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The CLI's bin is CommonJS (packages/cli/bin/sessiontape.cjs: no ES module loader at start).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
)
