/**
 * SharedApprovals in Redis (see shared.ts for the contract). Keys, under the connection's prefix:
 * - `approvals:pending:<id>`: `{"request": ApprovalRequest, "replica": id}`, expiring with the
 *   approval's deadline plus a margin (so nothing pending outlives its call by long);
 * - `approvals:index`: sorted set of pending ids by creation time (entries whose record is gone are
 *   dropped when listed);
 * - `approvals:decision:<id>`: a decision made by another replica, kept `DECISION_KEEP_MS`, read by
 *   the waiting replica if the pub/sub message did not reach it (it was reconnecting);
 * - `approvals:stdin:<process id>`: the unfinished stdin of a background process (`\u0000lost` when it
 *   can no longer be followed), kept `STDIN_TAIL_KEEP_MS`;
 * - `approvals:always`: set of SHA-256 digests of `always`-approved calls (tool + canonical arguments).
 * Channel `approvals:decided:<replica>` carries `{"id", "decision"}` to the replica where the call waits.
 *
 * Deciding is one Lua script (read the record, check its owner's lease, delete, record, publish), so
 * of two deciders exactly one wins; claiming (the waiting replica's own ending) is an atomic DEL.
 */
import { createHash } from 'node:crypto';
import { subscribeChannel } from '../state/channel.ts';
import type { ReplicaLease } from '../state/replica-lease.ts';
import type { RedisConnection } from '../state/redis-connection.ts';
import type { SharedApprovals, SharedDecideOutcome, SharedDecision } from './shared.ts';
import { APPROVAL_DECISIONS, type ApprovalDecision, type ApprovalRequest } from './types.ts';

/** How long a pending record outlives its deadline (the waiting replica's timeout claims it first). */
const PENDING_MARGIN_MS = 30_000;
const DECISION_KEEP_MS = 10 * 60_000;
const STDIN_TAIL_KEEP_MS = 24 * 60 * 60_000;
const LOST_TAIL = '\u0000lost';
/** Most pending approvals listed at once. */
const MAX_LISTED = 1_000;

const DECIDE_SCRIPT = `
local record = redis.call('GET', KEYS[1])
if not record then return {'not_found', ''} end
local owner = cjson.decode(record)['replica']
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('EXISTS', ARGV[4] .. owner) == 0 then return {'lost', owner} end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[5])
redis.call('PUBLISH', ARGV[3] .. owner, cjson.encode({id = ARGV[1], decision = ARGV[2], decided_by = ARGV[6]}))
return {'decided', owner}
`;

const CLAIM_SCRIPT = `
if redis.call('DEL', KEYS[1]) == 1 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
return 0
`;

function isDecision(value: unknown): value is ApprovalDecision {
  return typeof value === 'string' && (APPROVAL_DECISIONS as readonly string[]).includes(value);
}

interface PendingRecord {
  request: ApprovalRequest;
  replica: string;
}

export function redisApprovals(connection: RedisConnection, lease: ReplicaLease): SharedApprovals {
  const { commands, replicaId } = connection;
  const pendingKey = (id: string): string => connection.key('approvals', 'pending', id);
  const indexKey = connection.key('approvals', 'index');
  const decisionKey = (id: string): string => connection.key('approvals', 'decision', id);
  const alwaysKey = connection.key('approvals', 'always');
  const channelPrefix = connection.key('approvals', 'decided', '');
  const ownChannel = channelPrefix + replicaId;
  const listeners = new Set<(decision: SharedDecision) => void>();
  const onMessage = (message: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    const { id, decision, decided_by: decidedBy } = parsed as Record<string, unknown>;
    if (typeof id !== 'string' || !isDecision(decision)) return;
    for (const listener of listeners) listener({ id, decision, ...(typeof decidedBy === 'string' && decidedBy !== '' ? { decidedBy } : {}) });
  };
  const unsubscribe = subscribeChannel(connection, ownChannel, onMessage);
  const digest = (key: string): string => createHash('sha256').update(key).digest('hex');

  return {
    replicaId,
    async announce(request, expiresAtMs) {
      const record: PendingRecord = { request, replica: replicaId };
      const ttl = Math.max(1, expiresAtMs - Date.now()) + PENDING_MARGIN_MS;
      await commands.multi().set(pendingKey(request.id), JSON.stringify(record), 'PX', ttl).zadd(indexKey, String(Date.parse(request.created_at)), request.id).exec();
    },
    async list() {
      const ids = await commands.zrange(indexKey, '0', String(MAX_LISTED - 1));
      if (ids.length === 0) return [];
      const records = await commands.mget(...ids.map((id) => pendingKey(id)));
      const gone: string[] = [];
      const found: PendingRecord[] = [];
      records.forEach((text, index) => {
        if (text === null) gone.push(ids[index] as string);
        else found.push(JSON.parse(text) as PendingRecord);
      });
      if (gone.length > 0) await commands.zrem(indexKey, ...gone);
      const owners = [...new Set(found.map((record) => record.replica))];
      const live = new Set<string>();
      await Promise.all(owners.map(async (owner) => (await lease.alive(owner)) && live.add(owner)));
      return found.filter((record) => live.has(record.replica)).map((record) => record.request);
    },
    async decide(id, decision, decidedBy): Promise<SharedDecideOutcome> {
      const [status, replica] = (await commands.eval(
        DECIDE_SCRIPT,
        3,
        pendingKey(id),
        indexKey,
        decisionKey(id),
        id,
        decision,
        channelPrefix,
        connection.key('replicas', ''),
        String(DECISION_KEEP_MS),
        decidedBy ?? '',
      )) as [string, string];
      if (status === 'decided') return { status, replica };
      if (status === 'lost') return { status, replica };
      return { status: 'not_found' };
    },
    async claim(id) {
      return (await commands.eval(CLAIM_SCRIPT, 2, pendingKey(id), indexKey, id)) === 1;
    },
    async decisionOf(id) {
      const value = await commands.get(decisionKey(id));
      return isDecision(value) ? value : undefined;
    },
    onDecision(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async addAlways(key) {
      await commands.sadd(alwaysKey, digest(key));
    },
    async hasAlways(key) {
      return (await commands.sismember(alwaysKey, digest(key))) === 1;
    },
    async stdinTail(processId) {
      const value = await commands.get(connection.key('approvals', 'stdin', processId));
      return value === null ? undefined : value === LOST_TAIL ? 'lost' : value;
    },
    async setStdinTail(processId, tail) {
      const key = connection.key('approvals', 'stdin', processId);
      if (tail === undefined) await commands.del(key);
      else await commands.set(key, tail === 'lost' ? LOST_TAIL : tail, 'PX', STDIN_TAIL_KEEP_MS);
    },
    async close() {
      listeners.clear();
      await unsubscribe();
    },
  };
}
