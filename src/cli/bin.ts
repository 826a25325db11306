#!/usr/bin/env node
// The `toolhost` executable, compiled to dist/src/cli/bin.js (package.json `bin`). It imports only
// the composition root; each command's modules load when that command runs.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
