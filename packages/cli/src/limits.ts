/**
 * The CLI's bounds, so every command runs in flat memory on any input (a 1 GiB file of random bytes, one
 * line of 1 GiB): lines longer than this are reported as `too-long` problems and skipped unread. A 16 MiB
 * line decodes to at most a 32 MiB string and parses to about as much again: well inside the CLI's
 * 256 MB budget, and far above any real record (a base64 screenshot is a few MiB).
 */
export const CLI_MAX_LINE_BYTES = 16 * 1024 * 1024

/** Problems printed (and kept in `--json`) per command; the rest are counted by kind. */
export const CLI_KEEP_PROBLEMS = 1000
