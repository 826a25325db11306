#!/usr/bin/env node
// The `toolhost` executable. toolhost ships TypeScript sources and runs them through tsx's loader
// (no build step), so this small JavaScript entry registers the loader and hands over to main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
