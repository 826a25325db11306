/**
 * `toolhost add <oci-ref|https-url>`: pulls a tool, verifies its digest and its signature, checks the
 * policy it ships (a wider one needs `--accept-policy`; a local config may narrow it, never widen
 * it), installs it atomically into the extensions folder (a running daemon picks it up by hot
 * reload) and records it in `toolhost.lock`.
 *
 * Exit status: 0 installed, 1 refused (signature, digest, policy) or failed, 2 usage error.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { installTool, INSTALL_NAME_PATTERN } from '../../distribution/install.ts';
import { readLockfile, writeLockfile, type LockedTool } from '../../distribution/lockfile.ts';
import { SIDECAR_LAYERS } from '../../distribution/oci/artifact.ts';
import { isDigest, parseToolReference } from '../../distribution/oci/reference.ts';
import { diffPolicies, policyOf, renderPolicyDiff, type PolicyChange } from '../../distribution/policy-diff.ts';
import { digestOrNull, pullHttpsTool, pullOciTool, type PulledTool } from '../../distribution/pull.ts';
import { sha256Digest } from '../../distribution/oci/client.ts';
import type { ToolPolicy } from '../../policy.ts';
import { classifyBinary } from '../../wasm/component-kind.ts';
import type { CommandContext } from '../command-context.ts';
import {
  addDistributionOptions,
  addVerifyOptions,
  asCliError,
  blobCache,
  type DistributionFlags,
  extensionsDirectory,
  installedPolicy,
  lockfilePath,
  policyGate,
  readDistributionConfig,
  refused,
  registryClient,
  verifyOptions,
} from '../distribution-setup.ts';
import { EXIT_OK, type CliIo, usageError, writeWarning } from '../output.ts';

interface AddFlags extends DistributionFlags {
  name?: string;
  digest?: string;
}

export function defineAddCommand(command: Command, context: CommandContext): Command {
  command.argument('<oci-ref|https-url>', 'oci://registry/repository[:tag][@sha256:…], or https://…/tool.wasm with --digest');
  addDistributionOptions(command);
  addVerifyOptions(command);
  command
    .option('--name <name>', 'install as <name>.wasm (default: the repository\'s last component, or the URL\'s file name)')
    .option('--digest <sha256:…>', 'the digest the download must have (required for https://; pins an oci:// tag)');
  command.addHelpText(
    'after',
    [
      '',
      'Exit status: 0 installed, 1 refused (signature, digest, policy) or failed, 2 usage error.',
      '',
      'Examples:',
      '  toolhost add oci://127.0.0.1:5000/tools/greet:1.0 --key cosign.pub',
      '  toolhost add oci://ghcr.io/acme/tools/fetch:2 --certificate-identity you@example.com --certificate-oidc-issuer https://accounts.google.com',
      '  toolhost add https://example.com/tools/wc.wasm --digest sha256:…',
    ].join('\n'),
  );
  command.action(
    context.action(async (refText: string, flags: AddFlags) => {
      const { io } = context;
      const config = readDistributionConfig(flags, io);
      const verify = verifyOptions(flags, config, io);
      if (flags.name !== undefined && !INSTALL_NAME_PATTERN.test(flags.name)) throw usageError(`--name ${flags.name}: use letters, digits, "_" and "-" (at most 64)`);
      if (flags.digest !== undefined && !isDigest(flags.digest)) throw usageError(`--digest ${flags.digest}: expected sha256:<64 lower-case hex digits>`);
      const lockPath = lockfilePath(flags, io, config);
      try {
        const lock = readLockfile(lockPath);
        const parsed = parseToolReference(refText);
        const cache = blobCache(flags, config, io);
        let pulled: PulledTool;
        if (parsed.kind === 'https') {
          if (flags.digest === undefined) throw usageError('an https:// tool needs --digest sha256:… (the bytes it must have)');
          pulled = await pullHttpsTool(parsed.url, flags.digest, { cache });
        } else {
          const ref = parsed.oci;
          if (flags.digest !== undefined && ref.digest !== undefined && ref.digest !== flags.digest) throw usageError('the reference and --digest name different digests');
          pulled = await pullOciTool(flags.digest === undefined ? ref : { ...ref, digest: flags.digest }, { client: registryClient(flags, io), cache, verify });
        }
        const name = flags.name ?? pulled.defaultName;
        const directory = extensionsDirectory(flags, config, io);
        const installed = installPulled(io, pulled, name, config, flags, directory, installedPolicy(directory, name));
        lock.tools[name] = installed;
        writeLockfile(lockPath, lock);
        return EXIT_OK;
      } catch (error) {
        throw asCliError(error);
      }
    }),
  );
  return command;
}

/**
 * The shared tail of add and update: refuses a file that is no tool, applies the policy gate,
 * installs atomically and reports; returns the lock entry.
 */
export function installPulled(
  io: CliIo,
  pulled: PulledTool,
  name: string,
  config: Parameters<typeof policyGate>[3],
  flags: DistributionFlags,
  directory: string,
  before: ToolPolicy | undefined,
): LockedTool {
  if (pulled.warning !== undefined) writeWarning(io, pulled.warning);
  const kind = classifyBinary(pulled.files.wasm);
  if (kind.kind === 'refused') throw refused('not_a_tool', `${pulled.reference} is not a runnable tool: ${kind.reason}`);
  const gate = policyGate(name, before, pulled.files.sidecars.policy, config, flags, pulled.reference);
  const result = installTool(directory, name, pulled.files);
  const files: Record<string, string> = { [`${name}.wasm`]: sha256Digest(pulled.files.wasm) };
  for (const layer of SIDECAR_LAYERS) {
    const bytes = pulled.files.sidecars[layer.key];
    if (bytes !== undefined) files[`${name}${layer.suffix}`] = sha256Digest(bytes);
  }
  const grants = renderPolicyDiff({ wider: policyGrants(pulled.files.sidecars.policy), narrower: [] });
  const lines = [
    `installed ${name} from ${pulled.reference}`,
    `  digest      ${pulled.digest}`,
    `  signer      ${pulled.signer ?? (pulled.reference.startsWith('https://') ? 'none (pinned by --digest)' : 'NONE (unverified)')}`,
    `  into        ${resolve(directory)}: ${result.written.join(', ')}${result.removed.length > 0 ? ` (removed ${result.removed.join(', ')})` : ''}`,
    `  policy      ${grants.length === 0 ? 'no grants (no files, network or environment)' : grants.map((line) => line.slice(2)).join('; ')}`,
  ];
  const changes = renderPolicyDiff(gate.diff);
  if (before !== undefined && changes.length > 0) lines.push(`  policy diff ${changes.join('; ')}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return {
    reference: pulled.reference,
    digest: pulled.digest,
    signer: pulled.signer,
    policy_digest: digestOrNull(pulled.files.sidecars.policy),
    verified_at: pulled.verifiedAt,
    files,
  };
}

/** Every grant of a policy, as the changes from no grants. */
function policyGrants(bytes: Uint8Array | undefined): PolicyChange[] {
  return diffPolicies({}, policyOf(bytes, 'policy')).wider;
}
