/**
 * What the schedule tests share: an event stream collector (every event of `/v1/events`, waits on a
 * predicate), and a wait on `GET /v1/schedules` until its answer satisfies a predicate (asked again
 * after each `call_finished` event or every 250 ms, within a deadline sized for a loaded machine).
 */
import type { SchedulesBody } from '../../src/schedules/types.ts';
import { SseReader } from '../server/sse.ts';

export interface StreamedEvent {
  type: string;
  [field: string]: unknown;
}

export class EventCollector {
  readonly events: StreamedEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly reader: SseReader;
  private ended = false;
  private readonly pump: Promise<void>;

  private constructor(response: Response) {
    this.reader = new SseReader(response);
    this.pump = this.run();
  }

  /** Opens `/v1/events` of `url` with `headers`; resolves once the stream is established. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<EventCollector> {
    const response = await fetch(`${url}/v1/events`, { headers });
    if (response.status !== 200) throw new Error(`GET /v1/events: ${response.status}`);
    return new EventCollector(response);
  }

  /** The first event (already seen or still to come) that matches, within `timeoutMs`. */
  async waitFor(match: (event: StreamedEvent) => boolean, timeoutMs = 60_000, what = 'an event'): Promise<StreamedEvent> {
    const found = (): StreamedEvent | undefined => this.events.find(match);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = found();
      if (event !== undefined) return event;
      if (this.ended) throw new Error(`event stream ended before ${what}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; saw ${this.events.length} events`);
      await this.next(remaining);
    }
  }

  /** Resolves at the next event (or after `timeoutMs`). */
  next(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const waiters = this.waiters;
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    await this.reader.cancel();
    await this.pump;
  }

  private async run(): Promise<void> {
    try {
      for (;;) {
        const record = await this.reader.next(3_600_000);
        this.events.push(JSON.parse(record.data) as StreamedEvent);
        for (const wake of [...this.waiters]) wake();
      }
    } catch {
      this.ended = true;
      for (const wake of [...this.waiters]) wake();
    }
  }
}

/** `GET /v1/schedules`. */
export async function readSchedules(url: string, headers: Record<string, string> = {}): Promise<SchedulesBody> {
  const response = await fetch(`${url}/v1/schedules`, { headers });
  if (response.status !== 200) throw new Error(`GET /v1/schedules: ${response.status} ${await response.text()}`);
  return (await response.json()) as SchedulesBody;
}

/**
 * Asks `GET /v1/schedules` until `match` holds (an error answer counts as not yet): again after each event on `events` (a run finishing
 * is what changes the answer), at least every 250 ms. Returns the matching answer.
 */
export async function waitForSchedules(url: string, match: (body: SchedulesBody) => boolean, options: { events?: EventCollector; timeoutMs?: number; headers?: Record<string, string> } = {}): Promise<SchedulesBody> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let last: SchedulesBody | string | undefined;
  for (;;) {
    // through a balancer, an answer may be a 503 while it has no replica up yet: ask again
    last = await readSchedules(url, options.headers).catch((error: unknown) => (error as Error).message);
    if (typeof last !== 'string' && match(last)) return last;
    if (Date.now() > deadline) throw new Error(`GET /v1/schedules did not reach the expected state within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    await (options.events?.next(250) ?? new Promise((resolve) => setTimeout(resolve, 250)));
  }
}
