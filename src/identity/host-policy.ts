/**
 * Where the edges find a host's principal policy: registered against the host's registry when the
 * host is created (as the approval queue is), so every view of the host (the metrics wrapper, tests'
 * wrappers) finds the same one without the `Host` interface growing. The edges list and look up tools
 * through here so a principal sees only what its grant allows; the call path enforces the same grant.
 */
import type { Host } from '../host-types.ts';
import type { ToolLookup } from '../registry.ts';
import type { AnyTool } from '../tool.ts';
import type { Grant, PrincipalPolicy } from './policy.ts';
import type { Principal } from './principal.ts';
import { lookupForGrant, toolsForGrant } from './visibility.ts';

const policies = new WeakMap<object, PrincipalPolicy>();

export function registerPrincipalPolicy(registry: object, policy: PrincipalPolicy): void {
  policies.set(registry, policy);
}

/** The host's principal policy; undefined when identity mode is off. */
export function hostPrincipalPolicy(host: Pick<Host, 'registry'>): PrincipalPolicy | undefined {
  return policies.get(host.registry);
}

/** The grant of `principal` on `host`; undefined when nothing restricts it. */
export function principalGrant(host: Pick<Host, 'registry'>, principal: Principal | undefined): Grant | undefined {
  return principal === undefined ? undefined : hostPrincipalPolicy(host)?.grantFor(principal);
}

/** The tools `principal` sees (all the host lists when nothing restricts it). */
export function toolsFor(host: Host, principal: Principal | undefined): AnyTool[] {
  return toolsForGrant(host.listTools(), principalGrant(host, principal));
}

/** `host.lookupTool(name)` as `principal` sees it. */
export function lookupFor(host: Host, name: string, principal: Principal | undefined): ToolLookup {
  const lookup = host.lookupTool(name);
  return principal === undefined ? lookup : lookupForGrant(lookup, principalGrant(host, principal), principal.subject);
}
