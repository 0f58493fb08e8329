#!/usr/bin/env node
// The published entry point: the CLI bundle, run from its V8 code cache (src/start-from-code-cache.ts).
// CommonJS, like the bundle: a process that loads no ES module never starts Node's ES module loader.
// Inside the repo, `pnpm build` produces dist/.
'use strict'
const path = require('node:path')
require('../dist/start.cjs').startFromCodeCache(path.join(__dirname, '../dist/sessiontape.cjs'), require)
