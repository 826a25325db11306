/**
 * What `toolhost push|add|sync|update` share: their common flags, the config keys they read
 * (`extensions`, `cache_dir`, `policies`, `trust`), the registry client, the lockfile path, the
 * policy gate (`--accept-policy`) and how a refusal becomes exit code 1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { defaultCacheDirectory } from '../cache-directory.ts';
import { CONFIG_ENV } from '../config.ts';
import { blobCacheAt, type BlobCache } from '../distribution/blob-cache.ts';
import { createRegistryClient } from '../distribution/oci/client.ts';
import { defaultCredentialSource } from '../distribution/oci/credentials.ts';
import { ReferenceError } from '../distribution/oci/reference.ts';
import { LOCKFILE_NAME, LockfileError } from '../distribution/lockfile.ts';
import { diffPolicies, isWider, localOverride, policyOf, renderPolicyDiff, type PolicyDiff } from '../distribution/policy-diff.ts';
import { PullRefused } from '../distribution/pull.ts';
import type { RegistryClient } from '../distribution/registry-types.ts';
import type { VerifyOptions } from '../distribution/trust-port.ts';
import { parsePolicy, type ToolPolicy } from '../policy.ts';
import { CliError, EXIT_FAILURE, usageError, type CliIo } from './output.ts';

/**
 * The default extensions folder: the same as host-setup's DEFAULT_EXTENSIONS_DIR, repeated here so
 * these commands do not load the host (host-setup imports the composition root).
 */
export const DEFAULT_EXTENSIONS_DIR = 'extensions/tools';

export interface DistributionFlags {
  extensions?: string;
  config?: string;
  cacheDir?: string;
  lock?: string;
  plainHttp?: boolean;
  key?: string;
  certificateIdentity?: string;
  certificateOidcIssuer?: string;
  insecureAllowUnsigned?: boolean;
  acceptPolicy?: boolean;
}

/** `--extensions`, `--config`, `--cache-dir`, `--lock`, `--plain-http`. */
export function addDistributionOptions(command: Command): Command {
  return command
    .option('--extensions <dir>', `the extensions folder to install into (env TOOLHOST_EXTENSIONS, config "extensions"; default ./${DEFAULT_EXTENSIONS_DIR})`)
    .option('--lock <file>', `the lockfile (default ./${LOCKFILE_NAME})`)
    .option('--config <file>', 'JSON config file: its "extensions", "cache_dir", "policies" and "trust" apply')
    .option('--cache-dir <dir>', 'where pulled blobs are cached (env TOOLHOST_CACHE_DIR)')
    .option('--plain-http', 'reach a registry that is not on loopback over plain HTTP (loopback registries need no flag)');
}

/** `--key`, `--certificate-identity`, `--certificate-oidc-issuer`, `--insecure-allow-unsigned`, `--accept-policy`. */
export function addVerifyOptions(command: Command): Command {
  return command
    .option('--key <cosign.pub>', 'require a signature by this cosign public key')
    .option('--certificate-identity <identity>', 'require a keyless signature by this certificate identity (with --certificate-oidc-issuer)')
    .option('--certificate-oidc-issuer <url>', 'the OIDC issuer of --certificate-identity')
    .option('--insecure-allow-unsigned', 'INSECURE: install a tool even when no trusted signature is found')
    .option('--accept-policy', 'accept a policy that grants more (files, network hosts, environment, budgets) than before');
}

/** The config file's keys these commands use, read as written (paths relative to the file). */
export interface DistributionConfig {
  file?: string;
  extensions?: string;
  cacheDir?: string;
  /** The config's `lock` (absolute). */
  lock?: string;
  policies: Record<string, ToolPolicy>;
  trust?: unknown;
}

export function readDistributionConfig(flags: DistributionFlags, io: Pick<CliIo, 'cwd' | 'env'>): DistributionConfig {
  const fromEnv = (io.env[CONFIG_ENV.config] ?? '').trim();
  const path = flags.config ?? (fromEnv === '' ? undefined : fromEnv);
  if (path === undefined) return { policies: {} };
  const file = resolve(io.cwd, path);
  if (!existsSync(file)) throw usageError(`config file ${path} does not exist`);
  let value: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    value = parsed as Record<string, unknown>;
  } catch (error) {
    throw usageError(`config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const base = dirname(file);
  const policies: Record<string, ToolPolicy> = {};
  const rawPolicies = value['policies'];
  if (typeof rawPolicies === 'object' && rawPolicies !== null) {
    for (const [name, policy] of Object.entries(rawPolicies)) {
      try {
        policies[name] = parsePolicy(policy, `config policy of "${name}"`);
      } catch (error) {
        throw usageError((error as Error).message);
      }
    }
  }
  return {
    file,
    ...(typeof value['extensions'] === 'string' ? { extensions: resolve(base, value['extensions']) } : {}),
    ...(typeof value['cache_dir'] === 'string' ? { cacheDir: resolve(base, value['cache_dir']) } : {}),
    ...(typeof value['lock'] === 'string' ? { lock: resolve(base, value['lock']) } : {}),
    policies,
    ...(value['trust'] !== undefined ? { trust: value['trust'] } : {}),
  };
}

/** The extensions folder: `--extensions`, then TOOLHOST_EXTENSIONS, then the config, then ./extensions/tools. */
export function extensionsDirectory(flags: DistributionFlags, config: DistributionConfig, io: Pick<CliIo, 'cwd' | 'env'>): string {
  const fromEnv = (io.env[CONFIG_ENV.extensions] ?? '').trim();
  if (flags.extensions !== undefined) return resolve(io.cwd, flags.extensions);
  if (fromEnv !== '') return resolve(io.cwd, fromEnv);
  return config.extensions ?? resolve(io.cwd, DEFAULT_EXTENSIONS_DIR);
}

/** The lockfile: `--lock`, then the config's `lock`, then ./toolhost.lock (as `toolhost serve` and `inspect` read it). */
export function lockfilePath(flags: DistributionFlags, io: Pick<CliIo, 'cwd'>, config?: Pick<DistributionConfig, 'lock'>): string {
  if (flags.lock !== undefined) return resolve(io.cwd, flags.lock);
  return config?.lock ?? resolve(io.cwd, LOCKFILE_NAME);
}

export function blobCache(flags: DistributionFlags, config: DistributionConfig, io: Pick<CliIo, 'cwd' | 'env'>): BlobCache {
  const directory = flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : (io.env[CONFIG_ENV.cache_dir] ?? '') !== '' ? defaultCacheDirectory(io.env) : (config.cacheDir ?? defaultCacheDirectory(io.env));
  return blobCacheAt(directory);
}

export function registryClient(flags: DistributionFlags, io: Pick<CliIo, 'env'>): RegistryClient {
  return createRegistryClient({ plainHttp: flags.plainHttp === true, credentials: defaultCredentialSource(io.env) });
}

/** The trust layer's options from the flags and the config's `trust`; usage errors for half-given identities. */
export function verifyOptions(flags: DistributionFlags, config: DistributionConfig, io: Pick<CliIo, 'cwd'>): VerifyOptions {
  const identity = flags.certificateIdentity;
  const issuer = flags.certificateOidcIssuer;
  if ((identity === undefined) !== (issuer === undefined)) throw usageError('--certificate-identity and --certificate-oidc-issuer go together');
  if (flags.key !== undefined && identity !== undefined) throw usageError('give --key or --certificate-identity, not both');
  if (flags.key !== undefined && !existsSync(resolve(io.cwd, flags.key))) throw usageError(`--key ${flags.key}: no such file`);
  return {
    ...(flags.key === undefined ? {} : { key: resolve(io.cwd, flags.key) }),
    ...(identity === undefined || issuer === undefined ? {} : { identity: { subject: identity, issuer } }),
    ...(config.trust === undefined || config.file === undefined ? {} : { trust: { value: config.trust, baseDir: dirname(config.file) } }),
    allowUnsigned: flags.insecureAllowUnsigned === true,
  };
}

/** A refusal (exit 1) with its code in the message: `refused (digest_mismatch): …`. */
export function refused(code: string, message: string, hint?: string): CliError {
  return new CliError(`refused (${code}): ${message}`, { exitCode: EXIT_FAILURE, ...(hint === undefined ? {} : { hint }) });
}

/** Turns the distribution layer's errors into CLI errors (refusals exit 1, bad references exit 2). */
export function asCliError(error: unknown): unknown {
  if (error instanceof PullRefused) return refused(error.code, error.message);
  if (error instanceof ReferenceError) return usageError(error.message);
  if (error instanceof LockfileError) return new CliError(error.message, { exitCode: EXIT_FAILURE });
  return error;
}

/** The policy file installed for `name` now (the deny-everything policy when there is none). */
export function installedPolicy(directory: string, name: string): ToolPolicy | undefined {
  const wasm = join(directory, `${name}.wasm`);
  if (!existsSync(wasm)) return undefined;
  const file = join(directory, `${name}.policy.json`);
  try {
    return existsSync(file) ? policyOf(readFileSync(file), file) : {};
  } catch {
    return {};
  }
}

export interface PolicyGate {
  /** What the new policy grants beyond what was installed before (or beyond nothing, for a new tool). */
  diff: PolicyDiff;
  /** What the local config's `policies[name]` would add to the signed policy. */
  localWidening: PolicyDiff;
}

/**
 * The policy check of add and update: the signed policy against the one installed before (for a new
 * tool, against no grants), and the local config's override against the signed one. Throws a
 * refusal naming every new grant unless `--accept-policy`.
 */
export function policyGate(name: string, before: ToolPolicy | undefined, signedBytes: Uint8Array | undefined, config: DistributionConfig, flags: DistributionFlags, what: string): PolicyGate {
  const signed = policyOf(signedBytes, `the policy of ${what}`);
  const diff = diffPolicies(before ?? {}, signed);
  const { widened } = localOverride(signed, config.policies[name]);
  if (flags.acceptPolicy !== true) {
    if (isWider(diff)) {
      throw refused(
        'policy_wider',
        `${what} asks for more than ${before === undefined ? 'a new tool gets by default (nothing)' : 'the installed version'}: ${renderPolicyDiff({ wider: diff.wider, narrower: [] }).join('; ')}`,
        'review the grants, then run again with --accept-policy',
      );
    }
    if (isWider(widened)) {
      throw refused(
        'policy_wider',
        `the config's policies.${name} widens the signed policy of ${what}: ${renderPolicyDiff({ wider: widened.wider, narrower: [] }).join('; ')}`,
        'a local config may narrow a signed policy, never widen it: remove those grants, or pass --accept-policy',
      );
    }
  }
  return { diff, localWidening: widened };
}
