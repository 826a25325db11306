/**
 * Per-host state of tools (ToolContext.hostResource): at most one instance per key, created at first
 * use, and closed when the host stops, before in-flight calls are waited for, so a call waiting on a
 * background process returns as soon as the process is gone.
 */
import type { Logger } from '../logger.ts';
import type { HostResourceFactory } from '../host-types.ts';
import type { HostResource, HostResourceKey } from '../tool.ts';

export class HostResources {
  private readonly resources = new Map<HostResourceKey<HostResource>, HostResource>();
  private closed = false;

  private readonly factories: ReadonlyMap<HostResourceKey<HostResource>, () => HostResource>;

  /** `factories`: resources made otherwise than by their key's `create` (CreateHostDependencies.hostResources). */
  constructor(
    private readonly logger: Logger,
    factories: readonly HostResourceFactory[] = [],
  ) {
    this.factories = new Map(factories.map((factory) => [factory.key, () => factory.create()]));
  }

  /** The host's instance for `key`, created now if there is none. */
  get<Resource extends HostResource>(key: HostResourceKey<Resource>): Resource {
    const existing = this.resources.get(key);
    if (existing) return existing as Resource;
    const created = (this.factories.get(key) ?? (() => key.create()))() as Resource;
    if (this.closed) {
      // A call that was already running when the host stopped: it gets a resource that refuses work.
      void created.close();
      return created;
    }
    this.resources.set(key, created);
    return created;
  }

  /** Closes every resource (a failure is logged, not thrown); later `get`s hand out closed ones. */
  async close(): Promise<void> {
    this.closed = true;
    const closings = [...this.resources].map(async ([key, resource]) => {
      try {
        await resource.close();
      } catch (error) {
        this.logger.warn({ resource: key.name, error: error instanceof Error ? error.message : String(error) }, 'a host resource failed to close');
      }
    });
    this.resources.clear();
    await Promise.all(closings);
  }
}
