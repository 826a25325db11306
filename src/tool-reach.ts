/**
 * What a tool can reach on a host: its own permission and network flag, or, for a tool that calls
 * other tools through the host (`Tool.callsTools`, e.g. `run_code`), the most any tool the host
 * exposes needs (those are the tools it can call: the host's call path applies the permission mode,
 * include/exclude and approvals to every nested call). `visible` is the host's listed tools.
 */
import { PERMISSION_LEVELS, permissionRank, type PermissionLevel } from './permission.ts';
import type { AnyTool } from './tool.ts';

export interface ToolReach {
  permission: PermissionLevel;
  network: boolean;
}

export function toolReach(tool: Pick<AnyTool, 'permission' | 'network' | 'callsTools'>, visible: readonly Pick<AnyTool, 'permission' | 'network'>[]): ToolReach {
  if (tool.callsTools !== true) return { permission: tool.permission, network: tool.network };
  let rank = permissionRank(tool.permission);
  let network = tool.network;
  for (const other of visible) {
    rank = Math.max(rank, permissionRank(other.permission));
    network ||= other.network;
  }
  return { permission: PERMISSION_LEVELS[rank] ?? tool.permission, network };
}
