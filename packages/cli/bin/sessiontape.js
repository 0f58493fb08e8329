#!/usr/bin/env node
// The published entry point runs the built CLI; inside the repo, `pnpm build` produces it.
import '../dist/main.js'
