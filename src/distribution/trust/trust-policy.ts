/**
 * The trust policy: config key `trust` (extend-only), saying who may sign which references.
 *
 * ```json
 * "trust": {
 *   "policies": [
 *     { "match": "oci://127.0.0.1:*\/tools/*", "keys": ["keys/cosign.pub", "keys/cosign-2027.pub"] },
 *     { "match": "registry.example.com/acme/*", "identities": [{ "issuer": "https://token.actions.githubusercontent.com",
 *       "subject": "https://github.com/acme/tools/.github/workflows/release.yml@refs/heads/main" }] }
 *   ],
 *   "allow_unsigned": false,
 *   "trusted_root": "sigstore/trusted_root.json"
 * }
 * ```
 *
 * Contract:
 * - `match` is a glob (src/approvals/glob.ts: `*` is any run of characters, `/` included, `?` one) over
 *   `registry/repository` — no tag, no digest, the `oci://` prefix optional in the pattern. The FIRST
 *   entry that matches decides; a reference no entry matches has no expectation (refused unless unsigned
 *   tools are allowed).
 * - An entry accepts a signature by ANY of its `keys` (cosign public keys, paths relative to the config
 *   file) or ANY of its `identities` (keyless: the certificate's subject and OIDC issuer, both exact).
 *   Rotating a key = add the new key, sign with it, then remove the old one.
 * - `allow_unsigned` (default false) is the config twin of `--insecure-allow-unsigned`.
 * - `trusted_root` (optional) is a sigstore `trusted_root.json` for keyless verification (a private
 *   sigstore deployment, or tests); without it keyless uses the sigstore public-good root through TUF.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { compileGlob } from '../../approvals/glob.ts';
import type { OciReference } from '../registry-types.ts';

export const trustIdentitySchema = z
  .object({
    /** The OIDC issuer in the Fulcio certificate, e.g. `https://token.actions.githubusercontent.com`. */
    issuer: z.string().min(1),
    /** The certificate's subject (SAN): an email, or a workflow URI. */
    subject: z.string().min(1),
  })
  .strict();

export const trustPolicyEntrySchema = z
  .object({
    match: z
      .string()
      .min(1)
      .max(1024)
      .superRefine((pattern, context) => {
        try {
          compileGlob(pattern);
        } catch (error) {
          context.addIssue({ code: z.ZodIssueCode.custom, message: `not a glob: ${(error as Error).message}` });
        }
      }),
    keys: z.array(z.string().min(1)).optional(),
    identities: z.array(trustIdentitySchema).optional(),
  })
  .strict()
  .refine((entry) => (entry.keys?.length ?? 0) + (entry.identities?.length ?? 0) > 0, { message: 'a trust policy needs at least one of keys, identities' });

export const trustConfigSchema = z
  .object({
    policies: z.array(trustPolicyEntrySchema).optional(),
    allow_unsigned: z.boolean().optional(),
    trusted_root: z.string().min(1).optional(),
  })
  .strict();

export type TrustIdentity = z.infer<typeof trustIdentitySchema>;
export type TrustPolicyEntry = z.infer<typeof trustPolicyEntrySchema>;
export type TrustConfig = z.infer<typeof trustConfigSchema>;

/** The config's `trust` with key and root paths made absolute against `baseDir` (the config file's folder). */
export function resolveTrustPaths(config: TrustConfig, baseDir: string): TrustConfig {
  return {
    ...config,
    ...(config.policies ? { policies: config.policies.map((entry) => ({ ...entry, ...(entry.keys ? { keys: entry.keys.map((key) => resolve(baseDir, key)) } : {}) })) } : {}),
    ...(config.trusted_root !== undefined ? { trusted_root: resolve(baseDir, config.trusted_root) } : {}),
  };
}

/** What a signature must show: keys (paths) and/or keyless identities, and where that came from. */
export interface TrustExpectation {
  keys: string[];
  identities: TrustIdentity[];
  /** `--key`/`--certificate-identity`, or `trust.policies[i] (match "…")`. */
  source: string;
}

const referenceName = (ref: OciReference): string => `${ref.registry}/${ref.repository}`;

/** The first policy entry matching `ref`, as an expectation; `undefined` when none matches. */
export function expectationFor(config: TrustConfig | undefined, ref: OciReference): TrustExpectation | undefined {
  const name = referenceName(ref);
  const entries = config?.policies ?? [];
  for (const [index, entry] of entries.entries()) {
    const pattern = entry.match.startsWith('oci://') ? entry.match.slice('oci://'.length) : entry.match;
    if (compileGlob(pattern)(name)) {
      return { keys: entry.keys ?? [], identities: entry.identities ?? [], source: `trust.policies[${index}] (match "${entry.match}")` };
    }
  }
  return undefined;
}
