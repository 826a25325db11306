/**
 * The registry: name → tool, O(1) dispatch, change events, name rules and collisions,
 * the host's permission mode, and include/exclude glob lists.
 */
import { EventEmitter } from 'node:events';
import picomatch from 'picomatch';
import { ToolHostError } from './errors.ts';
import { isPermitted, type PermissionLevel } from './permission.ts';
import type { AnyTool } from './tool.ts';
import { isValidToolName, TOOL_NAME_PATTERN } from './tool-name.ts';
import { similarNames } from './similar-names.ts';

export type RegistryChange =
  | { type: 'added'; name: string; tool: AnyTool }
  | { type: 'updated'; name: string; tool: AnyTool; previous: AnyTool }
  | { type: 'removed'; name: string; tool: AnyTool };

export interface RegistryCollision {
  name: string;
  kept: AnyTool;
  rejected: AnyTool;
  reason: string;
}

export interface RegistryOptions {
  permissionMode?: PermissionLevel;
  /** Glob patterns of tool names to expose; empty or absent = all. */
  include?: readonly string[];
  /** Glob patterns of tool names to hide; wins over include. */
  exclude?: readonly string[];
}

export type ToolLookup =
  | { found: true; tool: AnyTool }
  | { found: false; reason: 'unknown' | 'excluded' | 'permission'; message: string }
  | { found: false; reason: 'load_failed'; message: string; file: string; error: string }
  /** No tool has the name yet, and an extension file that may provide it is still in the host's first load. */
  | { found: false; reason: 'loading'; message: string; file: string };

interface RegistryEvents {
  change: [RegistryChange];
  collision: [RegistryCollision];
}

export class ToolRegistry {
  readonly permissionMode: PermissionLevel;
  private readonly tools = new Map<string, AnyTool>();
  private readonly emitter = new EventEmitter<RegistryEvents>();
  private readonly isIncluded: (name: string) => boolean;
  private readonly isExcluded: (name: string) => boolean;

  constructor(options: RegistryOptions = {}) {
    this.permissionMode = options.permissionMode ?? 'execute';
    const include = options.include ?? [];
    const exclude = options.exclude ?? [];
    this.isIncluded = include.length > 0 ? picomatch([...include]) : () => true;
    this.isExcluded = exclude.length > 0 ? picomatch([...exclude]) : () => false;
  }

  on<Event extends keyof RegistryEvents>(event: Event, listener: (...args: RegistryEvents[Event]) => void): () => void {
    this.emitter.on(event, listener as never);
    return () => this.emitter.off(event, listener as never);
  }

  /**
   * Adds a tool, or replaces the tool of the same name from the same source.
   * Built-ins win: a wasm tool named like a built-in is rejected and reported as a collision.
   * Two wasm tools of one name: the first one stays (callers pass distinct names per file).
   * Returns the outcome instead of throwing, so one bad extension never stops the others.
   */
  add(tool: AnyTool, options: { replace?: boolean } = {}): { ok: true; change: RegistryChange } | { ok: false; collision: RegistryCollision } {
    if (!isValidToolName(tool.name)) {
      throw new ToolHostError('INVALID_TOOL_NAME', `Invalid tool name "${tool.name}": names must match ${TOOL_NAME_PATTERN.source}`);
    }
    const existing = this.tools.get(tool.name);
    if (existing && existing.source === tool.source && options.replace === true) {
      this.tools.set(tool.name, tool);
      const change: RegistryChange = { type: 'updated', name: tool.name, tool, previous: existing };
      this.emitter.emit('change', change);
      return { ok: true, change };
    }
    if (existing) {
      // Built-ins win; otherwise the tool registered first stays.
      const newcomerWins = tool.source === 'builtin' && existing.source !== 'builtin';
      const [kept, rejected] = newcomerWins ? [tool, existing] : [existing, tool];
      const reason =
        kept.source === 'builtin' && rejected.source !== 'builtin'
          ? `a built-in tool is already named "${tool.name}" (built-ins win)`
          : `a ${kept.source} tool is already named "${tool.name}" (the first one registered stays)`;
      if (newcomerWins) {
        this.tools.set(tool.name, tool);
        this.emitter.emit('change', { type: 'updated', name: tool.name, tool, previous: existing });
      }
      const collision: RegistryCollision = { name: tool.name, kept, rejected, reason };
      this.emitter.emit('collision', collision);
      return { ok: false, collision };
    }
    this.tools.set(tool.name, tool);
    const change: RegistryChange = { type: 'added', name: tool.name, tool };
    this.emitter.emit('change', change);
    return { ok: true, change };
  }

  /** Replaces a tool of the same name (hot reload of a new version). */
  replace(tool: AnyTool): ReturnType<ToolRegistry['add']> {
    return this.add(tool, { replace: true });
  }

  /** Removes a tool by name; pass `expected` to remove it only if it is still that exact tool. */
  remove(name: string, expected?: AnyTool): boolean {
    const existing = this.tools.get(name);
    if (!existing || (expected !== undefined && existing !== expected)) return false;
    this.tools.delete(name);
    this.emitter.emit('change', { type: 'removed', name, tool: existing });
    return true;
  }

  /** Any registered tool, visible or not. */
  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /** The tool a call may use, or why it may not. */
  lookup(name: string): ToolLookup {
    const tool = this.tools.get(name);
    if (!tool) {
      return { found: false, reason: 'unknown', message: this.unknownToolMessage(name) };
    }
    if (!this.isExposed(name)) {
      return { found: false, reason: 'excluded', message: `Tool "${name}" is not available on this host (excluded by configuration).` };
    }
    if (!isPermitted(tool.permission, this.permissionMode)) {
      return {
        found: false,
        reason: 'permission',
        message: `Tool "${name}" needs permission "${tool.permission}" but this host runs in "${this.permissionMode}" mode; it cannot be called here.`,
      };
    }
    return { found: true, tool };
  }

  /** Tools visible to clients: exposed by include/exclude and permitted by the mode, sorted by name. */
  list(): AnyTool[] {
    return [...this.tools.values()]
      .filter((tool) => this.isExposed(tool.name) && isPermitted(tool.permission, this.permissionMode))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every registered tool, including hidden ones. */
  all(): AnyTool[] {
    return [...this.tools.values()];
  }

  get size(): number {
    return this.tools.size;
  }

  private isExposed(name: string): boolean {
    return this.isIncluded(name) && !this.isExcluded(name);
  }

  private unknownToolMessage(name: string): string {
    const available = this.list().map((tool) => tool.name);
    const close = similarNames(name, available);
    const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
    return `Unknown tool "${name}".${hint} Available tools: ${available.join(', ') || '(none)'}.`;
  }
}
