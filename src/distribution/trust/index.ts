/**
 * The trust layer of `toolhost push|add|sync|update`: cosign-compatible signing and verification of a
 * tool artifact's manifest digest. Registry access goes only through `RegistryClient`
 * (src/distribution/registry-types.ts).
 *
 * Why the manifest digest is enough: the manifest lists every layer by digest (the component, the
 * `.tool.json` and `.policy.json` sidecars, any spec sidecar), so a signature over the manifest digest
 * covers the policy that travels with the tool; a changed policy layer is a different manifest digest,
 * which no one signed.
 *
 * Contract (used by the OCI helper; extend, don't rename):
 * - `signTool(client, ref, manifestDigest, {key, password?})` → `{signatureRef, signer}`: signs with a
 *   cosign private key (the password defaults to `COSIGN_PASSWORD`, as for cosign) and writes what
 *   `cosign sign --key` writes: the simple-signing payload as a layer of the `sha256-<hex>.sig` tag,
 *   keeping other keys' signatures there. Throws `TrustError` (`bad_key`, `registry_error`).
 * - `verifyTool(client, ref, manifestDigest, {key?, identity?, policy?, allowUnsigned?, trustedRoot?})`
 *   → `{ok: true, signer, verifiedAt, unsigned?, warning?}` | `{ok: false, code, message}` — errors as
 *   data, never thrown. Expectations: `key` (`--key cosign.pub`) and/or `identity`
 *   (`--certificate-identity` + `--certificate-oidc-issuer`) when given, else the first
 *   `trust.policies` entry matching the reference. Key-based signatures are read from the
 *   `sha256-<hex>.sig` tag (cosign v2) and from sigstore bundle referrers (`--new-bundle-format`,
 *   cosign v3's default); keyless ones from the same tag (cosign v2: certificate and Rekor entry as
 *   layer annotations) and from bundle referrers.
 *   Refused by default: no expectation (`no_trust_policy`), no signature (`unsigned`), no signature by
 *   an expected signer (`untrusted_signer`); the message names what was expected and what was found.
 * - `allowUnsigned` (`--insecure-allow-unsigned`, or `trust.allow_unsigned`) accepts a tool with no
 *   expectation, no signature or only untrusted signatures, as `{ok: true, signer: undefined,
 *   unsigned: true, warning}` — the caller must print the warning. It never accepts evidence of
 *   tampering: a signature that names another digest (`digest_mismatch`) or a bundle that fails its
 *   checks (`bad_signature`) is refused even then.
 * - `attachBundle(client, ref, manifestDigest, bundleJson)` attaches a sigstore bundle (keyless) as an
 *   OCI 1.1 referrer, the layout `verifyTool` reads.
 */
export { signTool, attachBundle, type SignToolOptions, type SignToolResult } from './sign.ts';
export { verifyTool, type VerifyToolOptions, type VerifyToolResult } from './verify.ts';
export type { TrustedSigner } from './registry-reads.ts';
export { TrustError, type TrustErrorCode } from './trust-error.ts';
export { trustConfigSchema, resolveTrustPaths, expectationFor, type TrustConfig, type TrustIdentity, type TrustExpectation } from './trust-policy.ts';
export { keyFingerprint, readPublicKey, readPrivateKey } from './cosign-keys.ts';
export { signatureTag, simpleSigningPayload, SIMPLE_SIGNING_MEDIA_TYPE, SIGNATURE_ANNOTATION } from './simple-signing.ts';
export { COSIGN_CERTIFICATE_ANNOTATION, COSIGN_CHAIN_ANNOTATION, COSIGN_REKOR_BUNDLE_ANNOTATION, SIGSTORE_BUNDLE_ARTIFACT_TYPE, type KeylessIdentity } from './keyless.ts';
