/**
 * The build's step that records the parser version (parser-version.ts) next to the compiled introspect
 * modules: `node dist-next/src/introspect/write-parser-version.js`, run by `npm run build` after tsc.
 */
import { writeParserVersion } from './parser-version.ts';

process.stdout.write(`parser version ${writeParserVersion().slice(0, 16)}\n`);
