/**
 * ProcessFleet over Redis pub/sub (contract: builtins/internal/process-fleet.ts). A request goes to
 * the owner's channel `processes:requests:<owner>` as `{id, from, request}`; the owner runs it and
 * publishes `{id, reply}` on `processes:replies:<from>`. No replica needs another's address.
 *
 * A request is answered `lost` when the owner's lease (replica-lease.ts) is gone: before sending
 * (nobody subscribes to a dead replica's channel) and, while waiting, at every lease check (an owner
 * SIGKILLed mid-request answers nothing). No answer within the timeout is `no_answer`; Redis down is
 * `unreachable`: the caller gets a clear error either way, never a hang.
 */
import { randomUUID } from 'node:crypto';
import type { ProcessFleet, ProcessReply, ProcessRequest } from '../../builtins/internal/process-fleet.ts';
import type { ToolResult } from '../result.ts';
import { subscribeChannel } from './channel.ts';
import type { ReplicaLease } from './replica-lease.ts';
import type { RedisConnection } from './redis-connection.ts';

/** How often a waiting request checks that its owner still holds its lease. */
const LEASE_CHECK_MS = 1_000;
/** Largest reply read from the channel (a result is capped far below this). */
const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

export interface RedisProcessFleet extends ProcessFleet {
  close(): Promise<void>;
}

function parse(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_MESSAGE_CHARS) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function redisProcessFleet(connection: RedisConnection, lease: ReplicaLease): RedisProcessFleet {
  const { replicaId } = connection;
  const requestChannel = (replica: string): string => connection.key('processes', 'requests', replica);
  const replyChannel = (replica: string): string => connection.key('processes', 'replies', replica);
  const waiting = new Map<string, (reply: ProcessReply) => void>();
  const stopReplies = subscribeChannel(connection, replyChannel(replicaId), (text) => {
    const message = parse(text);
    const id = message?.['id'];
    const reply = message?.['reply'] as ProcessReply | undefined;
    if (typeof id !== 'string' || typeof reply !== 'object' || reply === null) return;
    waiting.get(id)?.(reply);
  });
  /** Set once this replica's background processes exist; until then it has none to act on. */
  let handler: ((request: ProcessRequest) => Promise<ToolResult>) | undefined;
  // Subscribed from the start: a replica is asked (`list`) before it has ever started a process.
  const stopRequests = subscribeChannel(connection, requestChannel(replicaId), (text) => {
    const message = parse(text);
    const id = message?.['id'];
    const from = message?.['from'];
    const request = message?.['request'] as ProcessRequest | undefined;
    if (typeof id !== 'string' || typeof from !== 'string' || typeof request !== 'object' || request === null) return;
    const answer = handler?.(request) ?? Promise.resolve(noProcesses(request));
    void answer
      .then(
        (result: ToolResult): ProcessReply => ({ ok: true, result }),
        (error: unknown): ProcessReply => ({ ok: true, result: { content: `The process action failed on replica ${replicaId}: ${error instanceof Error ? error.message : String(error)}`, is_error: true } }),
      )
      .then((reply) => connection.commands.publish(replyChannel(from), JSON.stringify({ id, reply })))
      .catch(() => undefined);
  });
  const stops: Array<() => Promise<void>> = [stopReplies, stopRequests];
  const noProcesses = (request: ProcessRequest): ToolResult =>
    request.action === 'list'
      ? { content: 'No background processes.', is_error: false, metadata: { processes: [] } }
      : { content: `No background process "${String(request.process_id)}" on replica ${replicaId} (none has been started there).`, is_error: true };

  const lost = (owner: string): ProcessReply => ({ ok: false, reason: 'lost', message: `replica ${owner} is gone` });
  const unreachable = (error: unknown): ProcessReply => ({ ok: false, reason: 'unreachable', message: `the fleet's shared state is unreachable (${error instanceof Error ? error.message : String(error)})` });

  return {
    replicaId,
    async ask(owner, request, timeoutMs, signal) {
      try {
        if (!(await lease.alive(owner))) return lost(owner);
      } catch (error) {
        return unreachable(error);
      }
      const id = randomUUID();
      return new Promise<ProcessReply>((resolve) => {
        let settled = false;
        const finish = (reply: ProcessReply): void => {
          if (settled) return;
          settled = true;
          waiting.delete(id);
          clearTimeout(timer);
          clearInterval(check);
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        };
        const onAbort = (): void => finish({ ok: false, reason: 'no_answer', message: 'the call was cancelled while waiting' });
        const timer = setTimeout(() => finish({ ok: false, reason: 'no_answer', message: `no answer within ${timeoutMs} ms` }), timeoutMs);
        const check = setInterval(() => {
          lease.alive(owner).then(
            (alive) => alive || finish(lost(owner)),
            () => undefined,
          );
        }, LEASE_CHECK_MS);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, finish);
        connection.commands
          .publish(requestChannel(owner), JSON.stringify({ id, from: replicaId, request }))
          .then((receivers) => {
            // Nobody subscribed: the owner is gone even if its lease has not lapsed yet.
            if (receivers === 0) finish(lost(owner));
          }, (error: unknown) => finish(unreachable(error)));
      });
    },
    members: () => lease.members(),
    serve(next) {
      handler = next;
      return () => {
        if (handler === next) handler = undefined;
      };
    },
    async close() {
      for (const [, finish] of waiting) finish({ ok: false, reason: 'no_answer', message: 'this replica is shutting down' });
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
