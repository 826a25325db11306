#!/usr/bin/env node
// The `toolhost` executable, compiled to dist/src/cli/bin.js (package.json `bin`). It imports only
// the composition root; each command's modules load when that command runs.
import { main } from './main.ts';

// A reader that stops early (`toolhost list | head`) closes the pipe: end quietly, like other CLIs.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
