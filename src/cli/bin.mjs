#!/usr/bin/env node
// Runs the CLI from the TypeScript sources through tsx's loader, without a build: what the tests and
// a developer editing src/ use. The shipped `toolhost` command is the compiled dist/src/cli/bin.js.
import { register } from 'tsx/esm/api';

register();
await import('./bin.ts');
