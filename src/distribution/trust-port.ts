/**
 * The one place the distribution commands reach the trust layer (src/distribution/trust/, signing
 * and verification with sigstore). Its module is looked up at run time, so this slice builds and
 * runs with or without it: without it, `verify` refuses with `trust_unavailable` unless unsigned tools
 * are allowed (then it answers unsigned with a warning), and `sign` is an error.
 *
 * The shapes mirror the trust layer's exports: `verifyTool(client, ref, manifestDigest, {key?,
 * identity?, policy?, allowUnsigned?})` → `{ok: true, signer?: {id}, verifiedAt, unsigned?, warning?}`
 * | `{ok: false, code, message}`, `signTool(client, ref, manifestDigest, {key, password?})` →
 * `{signatureRef, signer}`, `trustConfigSchema` and `resolveTrustPaths(config, baseDir)`.
 */
import type { OciReference, RegistryClient } from './registry-types.ts';

export interface VerifyOptions {
  /** `--key cosign.pub`. */
  key?: string;
  /** `--certificate-identity` + `--certificate-oidc-issuer`. */
  identity?: { subject: string; issuer: string };
  /** The config's `trust` section as written, and the folder its paths are relative to. */
  trust?: { value: unknown; baseDir: string };
  /** `--insecure-allow-unsigned`. */
  allowUnsigned?: boolean;
}

export type VerifyOutcome =
  | { ok: true; signer: string | undefined; verifiedAt: string; warning?: string }
  | { ok: false; code: string; message: string };

interface TrustModule {
  verifyTool(client: RegistryClient, ref: OciReference, manifestDigest: string, options: Record<string, unknown>): Promise<{ ok: boolean; signer?: { id: string }; verifiedAt?: string; warning?: string; code?: string; message?: string }>;
  signTool(client: RegistryClient, ref: OciReference, manifestDigest: string, options: { key: string; password?: string }): Promise<{ signatureRef: string; signer?: { id: string } }>;
  trustConfigSchema?: { parse(value: unknown): unknown };
  resolveTrustPaths?(config: unknown, baseDir: string): unknown;
}

let loaded: Promise<TrustModule | undefined> | undefined;

/** The trust layer's module, or undefined when this build has none. */
function loadTrustModule(): Promise<TrustModule | undefined> {
  loaded ??= (async () => {
    const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const specifier = new URL(`./trust/index${extension}`, import.meta.url).href;
    try {
      const module = (await import(/* @vite-ignore */ specifier)) as Partial<TrustModule>;
      return typeof module.verifyTool === 'function' && typeof module.signTool === 'function' ? (module as TrustModule) : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('/trust/index')) return undefined;
      throw error;
    }
  })();
  return loaded;
}

/** True when this build can verify and sign. */
export async function trustAvailable(): Promise<boolean> {
  return (await loadTrustModule()) !== undefined;
}

/** Verifies that an expected signer signed `manifestDigest`; never throws. */
export async function verifyArtifact(client: RegistryClient, ref: OciReference, manifestDigest: string, options: VerifyOptions): Promise<VerifyOutcome> {
  let module: TrustModule | undefined;
  try {
    module = await loadTrustModule();
  } catch (error) {
    return { ok: false, code: 'trust_unavailable', message: `the trust layer failed to load: ${(error as Error).message}` };
  }
  const now = new Date().toISOString();
  if (module === undefined) {
    const reason = 'this build of toolhost has no signature verification';
    if (options.allowUnsigned === true) return { ok: true, signer: undefined, verifiedAt: now, warning: `INSECURE: installing an unverified tool (--insecure-allow-unsigned): ${reason}` };
    return { ok: false, code: 'trust_unavailable', message: `Refused ${ref.registry}/${ref.repository}@${manifestDigest}: ${reason}; pass --insecure-allow-unsigned to install it unverified` };
  }
  try {
    let policy: unknown;
    if (options.trust !== undefined) {
      const parsed = module.trustConfigSchema ? module.trustConfigSchema.parse(options.trust.value) : options.trust.value;
      policy = module.resolveTrustPaths ? module.resolveTrustPaths(parsed, options.trust.baseDir) : parsed;
    }
    const outcome = await module.verifyTool(client, ref, manifestDigest, {
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.identity === undefined ? {} : { identity: options.identity }),
      ...(policy === undefined ? {} : { policy }),
      allowUnsigned: options.allowUnsigned === true,
    });
    if (outcome.ok) {
      return { ok: true, signer: outcome.signer?.id, verifiedAt: outcome.verifiedAt ?? now, ...(outcome.warning === undefined ? {} : { warning: outcome.warning }) };
    }
    return { ok: false, code: outcome.code ?? 'untrusted_signer', message: outcome.message ?? 'refused by the trust layer' };
  } catch (error) {
    return { ok: false, code: 'bad_trust_config', message: `the trust policy cannot be used: ${(error as Error).message}` };
  }
}

/** Signs `manifestDigest` with a cosign key; throws when the trust layer is missing or signing fails. */
export async function signArtifact(client: RegistryClient, ref: OciReference, manifestDigest: string, options: { key: string; password?: string }): Promise<{ signatureRef: string; signer: string | undefined }> {
  const module = await loadTrustModule();
  if (module === undefined) throw new Error('this build of toolhost cannot sign (no trust layer): push without --sign, or sign with `cosign sign --key`');
  const result = await module.signTool(client, ref, manifestDigest, options);
  return { signatureRef: result.signatureRef, signer: result.signer?.id };
}
