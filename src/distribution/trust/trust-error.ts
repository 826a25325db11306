/**
 * The trust layer's refusal codes. `verifyTool` returns them as data (`{ok: false, code, message}`);
 * `signTool` and the key readers throw `TrustError` carrying one.
 *
 * - `no_trust_policy`: nothing says who may sign this reference (no `--key`, no
 *   `--certificate-identity`, no matching `trust.policies` entry) and unsigned tools are not allowed.
 * - `unsigned`: no signature of the manifest digest was found where cosign puts them.
 * - `untrusted_signer`: signatures exist, but none is by an expected key or identity.
 * - `digest_mismatch`: a signature verifies but names another manifest digest (a copied or replayed signature).
 * - `bad_signature`: a signature artifact is malformed, or fails its certificate chain or transparency-log proof.
 * - `bad_key`: a key file is unreadable, malformed or encrypted with another password.
 * - `registry_error`: the registry failed while signatures were read or written.
 */
export type TrustErrorCode = 'no_trust_policy' | 'unsigned' | 'untrusted_signer' | 'digest_mismatch' | 'bad_signature' | 'bad_key' | 'registry_error';

export class TrustError extends Error {
  constructor(
    readonly code: TrustErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TrustError';
  }
}
