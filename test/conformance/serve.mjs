#!/usr/bin/env node
// The daemon the conformance run tests (test/conformance/run.mjs): `toolhost serve` as the CLI composes
// it (the composition root's runServeCommand on the build in dist/), plus the suite's `test://`
// resources (resources.mjs) through the `resourceSources` extension point. Prints the CLI's lines:
// "toolhost listening on <url>" (stdout) and "toolhost ready: …" (stderr) once the extensions loaded.
//
// Usage: node test/conformance/serve.mjs --workspace <dir> --extensions <dir> --cache-dir <dir>
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../dist/src/config.js';
import { createLogger } from '../../dist/src/logger.js';
import { runServeCommand } from '../../dist/src/server/index.js';
import { conformanceResourceSource } from './resources.mjs';

const { values } = parseArgs({ options: { workspace: { type: 'string' }, extensions: { type: 'string' }, 'cache-dir': { type: 'string' } } });
const config = resolveConfig({ flags: { port: 0, workspace: values.workspace, extensions: values.extensions, cacheDir: values['cache-dir'] } });
const logger = createLogger({ stderr: true, level: process.env.TOOLHOST_LOG_LEVEL ?? 'warn' });
const resources = conformanceResourceSource({ workspaceRoot: config.host.workspaceRoot ?? process.cwd(), permissionMode: config.host.permissionMode ?? 'execute' });
const { host, server } = await runServeCommand({ config, logger, extensions: { compileOnLoad: false }, resourceSources: [resources] });
process.stdout.write(`toolhost listening on ${server.url} (${host.listTools().length} tools)\n`);
void host.ready.then(() => {
  for (const failure of host.loadFailures()) process.stderr.write(`could not load ${failure.file}: ${failure.error}\n`);
  process.stderr.write(`toolhost ready: ${host.listTools().length} tools (extensions loaded: ${host.readiness().loaded}, failed: ${host.loadFailures().length})\n`);
});
