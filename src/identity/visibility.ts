/**
 * A principal's view of the tool set: the host's visible tools narrowed by the principal's grant
 * (src/identity/policy.ts). A tool the grant hides is answered like a tool the host hides: listings
 * leave it out, a lookup says it is not available to this principal (`excluded` by its rule, or
 * `permission` above its level), so a call never reaches it.
 */
import { isPermitted } from '../permission.ts';
import type { ToolLookup } from '../registry.ts';
import type { AnyTool } from '../tool.ts';
import type { Grant } from './policy.ts';

/** True when `grant` lets its principal see and call `tool` (undefined grant: no restriction). */
export function grantAllows(grant: Grant | undefined, tool: AnyTool): boolean {
  return grant === undefined || (grant.allowed && grant.exposes(tool.name) && isPermitted(tool.permission, grant.permissionMode));
}

/** `tools` without those `grant` hides. */
export function toolsForGrant(tools: AnyTool[], grant: Grant | undefined): AnyTool[] {
  return grant === undefined ? tools : tools.filter((tool) => grantAllows(grant, tool));
}

/** The host's lookup as the principal sees it. */
export function lookupForGrant(lookup: ToolLookup, grant: Grant | undefined, subject: string): ToolLookup {
  if (grant === undefined || !lookup.found) return lookup;
  const { tool } = lookup;
  if (!grant.allowed) return { found: false, reason: 'excluded', message: `Tool "${tool.name}" is not available to "${subject}": ${grant.denied ?? 'denied by the host policy'}.` };
  if (!grant.exposes(tool.name)) return { found: false, reason: 'excluded', message: `Tool "${tool.name}" is not available to "${subject}" (excluded by the host's principals policy).` };
  if (!isPermitted(tool.permission, grant.permissionMode)) {
    return { found: false, reason: 'permission', message: `Tool "${tool.name}" needs permission "${tool.permission}" but "${subject}" may use only "${grant.permissionMode}" tools here; it cannot be called.` };
  }
  return lookup;
}
