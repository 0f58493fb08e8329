// A test's timeout only catches a hang: nothing a test asserts depends on how fast the machine is. These are
// for work that is long by nature, so a loaded machine (the suite beside other work, two CPU hogs at load
// 15–20 on 2 cores) never fails a test that would pass alone. Each file that uses one says which applies.

/** A test that starts real child processes: each start of Node with tsx takes seconds on a loaded machine. */
export const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000
