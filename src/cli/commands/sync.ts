/**
 * `toolhost sync`: makes the extensions folder hold exactly the bytes `toolhost.lock` records. A
 * locked tool whose files already match is left alone; one that is missing or differs is fetched
 * by its locked digest (from the blob cache first, so it works offline once pulled; else from the
 * registry or URL) and every file is checked against the lock before it is installed atomically.
 * `.wasm` files the lock does not know are reported, and removed with `--prune`.
 *
 * Signatures were verified when `add` or `update` wrote the lock entry (its `signer`); sync checks
 * digests, which pin those same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { BlobCache } from '../../distribution/blob-cache.ts';
import { installTool } from '../../distribution/install.ts';
import { LockfileError, readLockfile, type LockedTool } from '../../distribution/lockfile.ts';
import { fetchToolFiles, layoutOf, SIDECAR_LAYERS, type ToolFiles } from '../../distribution/oci/artifact.ts';
import { parseToolReference } from '../../distribution/oci/reference.ts';
import { manifestOf, PullRefused, pullHttpsTool } from '../../distribution/pull.ts';
import { OciError, type RegistryClient } from '../../distribution/registry-types.ts';
import type { CommandContext } from '../command-context.ts';
import { addDistributionOptions, asCliError, blobCache, type DistributionFlags, extensionsDirectory, lockfilePath, readDistributionConfig, registryClient } from '../distribution-setup.ts';
import { type CliIo, CliError, EXIT_FAILURE, EXIT_OK, writeWarning } from '../output.ts';
import { isWider, localOverride, policyOf, renderPolicyDiff } from '../../distribution/policy-diff.ts';
import type { ToolPolicy } from '../../policy.ts';

interface SyncFlags extends DistributionFlags {
  prune?: boolean;
}

export function defineSyncCommand(command: Command, context: CommandContext): Command {
  addDistributionOptions(command);
  command.option('--prune', 'also remove .wasm tools (and their sidecars) that the lock does not list');
  command.addHelpText('after', '\nExit status: 0 the folder matches the lock, 1 a tool could not be fetched or did not match its digests, 2 usage error.');
  command.action(
    context.action(async (flags: SyncFlags) => {
      const { io } = context;
      const config = readDistributionConfig(flags, io);
      const lockPath = lockfilePath(flags, io, config);
      if (!existsSync(lockPath)) throw new CliError(`no lockfile at ${lockPath}`, { hint: '`toolhost add <ref>` creates it; pass --lock FILE for another one' });
      try {
        const lock = readLockfile(lockPath);
        const directory = extensionsDirectory(flags, config, io);
        const cache = blobCache(flags, config, io);
        const client = registryClient(flags, io);
        let failed = 0;
        for (const [name, entry] of Object.entries(lock.tools)) {
          if (matchesLock(directory, name, entry)) {
            io.stdout.write(`ok        ${name} ${entry.digest}\n`);
            warnIfConfigWidens(io, name, config.policies[name], directory);
            continue;
          }
          try {
            const files = await lockedFiles(name, entry, client, cache);
            installTool(directory, name, files);
            io.stdout.write(`installed ${name} ${entry.digest}\n`);
            warnIfConfigWidens(io, name, config.policies[name], directory);
          } catch (error) {
            failed++;
            const code = error instanceof PullRefused || error instanceof OciError ? error.code : 'failed';
            writeWarning(io, `refused (${code}): ${name}: ${(error as Error).message}`);
          }
        }
        const known = new Set(Object.keys(lock.tools));
        const extra = existsSync(directory) ? readdirSync(directory).filter((file) => file.endsWith('.wasm') && !known.has(file.slice(0, -'.wasm'.length))) : [];
        for (const file of extra) {
          const stem = file.slice(0, -'.wasm'.length);
          if (flags.prune === true) {
            for (const suffix of ['.wasm', ...SIDECAR_LAYERS.map((layer) => layer.suffix)]) rmSync(join(directory, `${stem}${suffix}`), { force: true });
            io.stdout.write(`removed   ${stem} (not in the lock)\n`);
          } else io.stdout.write(`unlocked  ${stem} (not in the lock; --prune removes it)\n`);
        }
        if (failed > 0) throw new CliError(`${failed} locked tool(s) could not be installed`, { exitCode: EXIT_FAILURE });
        return EXIT_OK;
      } catch (error) {
        throw asCliError(error);
      }
    }),
  );
  return command;
}

/** A config `policies.<name>` that adds grants to the signed policy: said on every sync (add and update refuse it without --accept-policy). */
function warnIfConfigWidens(io: CliIo, name: string, configured: ToolPolicy | undefined, directory: string): void {
  if (configured === undefined) return;
  const file = join(directory, `${name}.policy.json`);
  const signed = existsSync(file) ? policyOf(readFileSync(file), file) : {};
  const { widened } = localOverride(signed, configured);
  if (isWider(widened)) writeWarning(io, `the config's policies.${name} widens the signed policy: ${renderPolicyDiff({ wider: widened.wider, narrower: [] }).join('; ')}`);
}

function digestOfFile(path: string): string | undefined {
  try {
    return `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  } catch {
    return undefined;
  }
}

/** True when the tool's files in `directory` are exactly the locked ones (no missing, changed or extra sidecar). */
export function matchesLock(directory: string, name: string, entry: LockedTool): boolean {
  for (const [file, digest] of Object.entries(entry.files)) if (digestOfFile(join(directory, file)) !== digest) return false;
  for (const layer of SIDECAR_LAYERS) {
    const file = `${name}${layer.suffix}`;
    if (entry.files[file] === undefined && existsSync(join(directory, file))) return false;
  }
  return true;
}

/** The locked files, fetched by digest and checked file by file against the lock. */
async function lockedFiles(name: string, entry: LockedTool, client: RegistryClient, cache: BlobCache): Promise<ToolFiles> {
  const parsed = parseToolReference(entry.reference);
  let files: ToolFiles;
  if (parsed.kind === 'https') files = (await pullHttpsTool(parsed.url, entry.digest, { cache })).files;
  else {
    const ref = { ...parsed.oci, digest: entry.digest };
    const fetched = await manifestOf(ref, { client, cache });
    files = await fetchToolFiles(client, ref, layoutOf(fetched, entry.reference), cache);
  }
  const got: Record<string, string> = { [`${name}.wasm`]: `sha256:${createHash('sha256').update(files.wasm).digest('hex')}` };
  for (const layer of SIDECAR_LAYERS) {
    const bytes = files.sidecars[layer.key];
    if (bytes !== undefined) got[`${name}${layer.suffix}`] = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  }
  const expected = Object.entries(entry.files).sort();
  const actual = Object.entries(got).sort();
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    throw new LockfileError(`${entry.reference}@${entry.digest} does not hold the files the lock records (${expected.map(([file]) => file).join(', ')})`);
  }
  return files;
}
