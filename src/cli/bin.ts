#!/usr/bin/env node
// The `toolhost` executable, compiled to dist/src/cli/bin.js (package.json `bin`). It imports only
// the CLI's program (main.ts); each command's modules load when that command runs.
import module from 'node:module';

// Node 22.1+ keeps V8's compiled code of the modules a run loads on disk (NODE_COMPILE_CACHE, else
// the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so the next `toolhost` start skips
// parsing and compiling them. Enabled before anything else is imported; absent on Node 20 (no-op).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./main.ts');

// A reader that stops early (`toolhost list | head`) closes the pipe: end quietly, like other CLIs.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
