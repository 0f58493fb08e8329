import path from 'node:path'
import { describeValue } from '../../util/describe-value.js'

/**
 * The directory Claude Code keeps a project's sessions in, and the one its tools scan (ccusage reads
 * `<projects>/**\/*.jsonl`, claude-code-log one project directory): `<projectsDir>/<cwd with every
 * character that is not a letter or digit replaced by '-'>`, e.g. `/home/me/app` → `-home-me-app`.
 * `projectsDir` is usually `~/.claude/projects` (`$CLAUDE_CONFIG_DIR/projects` when that is set).
 * Give it as `dir` to a recorder with `profile: 'claude-code'`.
 */
export function claudeProjectDir(projectsDir: string, cwd: string): string {
  if (typeof projectsDir !== 'string' || projectsDir.length === 0) {
    throw new TypeError(
      `Expected \`projectsDir\` to be a non-empty string, got \`${describeValue(projectsDir)}\` (${typeof projectsDir})`,
    )
  }
  if (typeof cwd !== 'string' || cwd.length === 0) {
    throw new TypeError(
      `Expected \`cwd\` to be a non-empty string, got \`${describeValue(cwd)}\` (${typeof cwd})`,
    )
  }
  return path.join(projectsDir, cwd.replace(/[^a-zA-Z0-9]/g, '-'))
}
