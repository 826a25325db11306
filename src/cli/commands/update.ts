/**
 * `toolhost update [name]`: moves locked tools whose reference has a tag to the digest the tag names
 * now. For each tool that moved it shows what changed — digest, signer, and the policy diff (new fs
 * grants, network hosts, environment, budgets) — verifies the new signature, and installs it; a
 * wider policy is refused without `--accept-policy`, and `--dry-run` only shows.
 *
 * Exit status: 0 up to date or updated, 1 a tool was refused (signature, digest, policy), 2 usage error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { readLockfile, writeLockfile, type LockedTool } from '../../distribution/lockfile.ts';
import { sha256Digest } from '../../distribution/oci/client.ts';
import { parseToolReference } from '../../distribution/oci/reference.ts';
import { diffPolicies, policyOf, renderPolicyDiff } from '../../distribution/policy-diff.ts';
import { PullRefused, pullOciTool } from '../../distribution/pull.ts';
import { OciError } from '../../distribution/registry-types.ts';
import type { ToolPolicy } from '../../policy.ts';
import type { CommandContext } from '../command-context.ts';
import {
  addDistributionOptions,
  addVerifyOptions,
  asCliError,
  blobCache,
  type DistributionFlags,
  extensionsDirectory,
  lockfilePath,
  readDistributionConfig,
  registryClient,
  verifyOptions,
} from '../distribution-setup.ts';
import { CliError, EXIT_FAILURE, EXIT_OK, usageError, writeWarning } from '../output.ts';
import { installPulled } from './add.ts';

interface UpdateFlags extends DistributionFlags {
  dryRun?: boolean;
}

export function defineUpdateCommand(command: Command, context: CommandContext): Command {
  command.argument('[name]', 'the locked tool to update (default: every locked tool)');
  addDistributionOptions(command);
  addVerifyOptions(command);
  command.option('--dry-run', 'show what would change; install nothing');
  command.addHelpText('after', '\nExit status: 0 up to date or updated, 1 a tool was refused (signature, digest, policy), 2 usage error.');
  command.action(
    context.action(async (name: string | undefined, flags: UpdateFlags) => {
      const { io } = context;
      const config = readDistributionConfig(flags, io);
      const verify = verifyOptions(flags, config, io);
      const lockPath = lockfilePath(flags, io, config);
      if (!existsSync(lockPath)) throw new CliError(`no lockfile at ${lockPath}`, { hint: '`toolhost add <ref>` creates it' });
      try {
        const lock = readLockfile(lockPath);
        if (name !== undefined && lock.tools[name] === undefined) throw usageError(`${name} is not in ${lockPath}`, `locked tools: ${Object.keys(lock.tools).join(', ') || 'none'}`);
        const names = name === undefined ? Object.keys(lock.tools) : [name];
        const directory = extensionsDirectory(flags, config, io);
        const cache = blobCache(flags, config, io);
        const client = registryClient(flags, io);
        let refusedCount = 0;
        for (const toolName of names) {
          const entry = lock.tools[toolName]!;
          const parsed = parseToolReference(entry.reference);
          if (parsed.kind === 'https' || parsed.oci.tag === undefined) {
            io.stdout.write(`${toolName}: pinned (${entry.reference}); add it again to move it\n`);
            continue;
          }
          try {
            const current = await client.getManifest(parsed.oci);
            cache.put(current.digest, current.bytes);
            if (current.digest === entry.digest) {
              io.stdout.write(`${toolName}: up to date (${entry.digest})\n`);
              continue;
            }
            const pulled = await pullOciTool({ ...parsed.oci, digest: current.digest }, { client, cache, verify });
            pulled.reference = entry.reference;
            const before = lockedPolicy(directory, toolName, entry, cache);
            const diff = renderPolicyDiff(diffPolicies(before, policyOf(pulled.files.sidecars.policy, `the policy of ${entry.reference}`)));
            io.stdout.write(
              [
                `${toolName}: ${entry.reference}`,
                `  digest  ${entry.digest} → ${pulled.digest}`,
                `  signer  ${entry.signer ?? 'none'} → ${pulled.signer ?? 'NONE (unverified)'}${entry.signer !== pulled.signer ? '  (changed)' : ''}`,
                `  policy  ${diff.length === 0 ? 'unchanged' : ''}`,
                ...diff.map((line) => `    ${line}`),
              ].join('\n') + '\n',
            );
            if (flags.dryRun === true) continue;
            lock.tools[toolName] = installPulled(io, pulled, toolName, config, flags, directory, before);
            writeLockfile(lockPath, lock);
          } catch (error) {
            const mapped = asCliError(error);
            if (mapped instanceof CliError && mapped.exitCode === EXIT_FAILURE) {
              refusedCount++;
              writeWarning(io, `${toolName}: ${mapped.message}${mapped.hint === undefined ? '' : ` (hint: ${mapped.hint})`}`);
              continue;
            }
            if (error instanceof PullRefused || error instanceof OciError) {
              refusedCount++;
              writeWarning(io, `${toolName}: refused (${error.code}): ${error.message}`);
              continue;
            }
            throw mapped;
          }
        }
        if (refusedCount > 0) throw new CliError(`${refusedCount} tool(s) not updated; the installed versions keep serving`, { exitCode: EXIT_FAILURE });
        return EXIT_OK;
      } catch (error) {
        throw asCliError(error);
      }
    }),
  );
  return command;
}

/** The policy the lock entry installed: from the blob cache by its digest, else the installed file when it still matches. */
function lockedPolicy(directory: string, name: string, entry: LockedTool, cache: { get(digest: string): Uint8Array | undefined }): ToolPolicy {
  if (entry.policy_digest === null) return {};
  const cached = cache.get(entry.policy_digest);
  if (cached !== undefined) return policyOf(cached, `the locked policy of ${name}`);
  const file = join(directory, `${name}.policy.json`);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    if (sha256Digest(bytes) === entry.policy_digest) return policyOf(bytes, file);
  }
  // Unknown: compare against no grants, so every grant of the new version shows and needs acceptance.
  return {};
}
