/**
 * McpSessionStore in Redis (contract: src/server/mcp-session-store.ts). Keys under the connection's
 * prefix: `mcp:session:<id>` is a hash (field `init`: the initialize params and protocol version;
 * `state:level` and `state:uri:<uri>`: the latest state-setting request per key), expiring `idleMs`
 * after its last use; each change is one HSET/HDEL, so two replicas changing a session at once lose
 * nothing. Channel `mcp:sessions` carries notices (`{from, notice}`) every replica reads, ignoring its own.
 */
import type { McpSessionNotice, McpSessionRecord, McpSessionRequest, McpSessionStore } from '../server/mcp-session-store.ts';
import { subscribeChannel } from './channel.ts';
import type { RedisConnection } from './redis-connection.ts';

const STATE_FIELD = 'state:';

/** The hash field a state-setting request is kept under (its latest value per key). */
function stateField(request: McpSessionRequest): string {
  return STATE_FIELD + (request.method === 'logging/setLevel' ? 'level' : `uri:${String(request.params?.['uri'])}`);
}

/** Largest notice read from the channel (a forwarded client message). */
const MAX_NOTICE_CHARS = 4 * 1024 * 1024;

export function redisMcpSessions(connection: RedisConnection): McpSessionStore {
  const { commands, replicaId } = connection;
  const recordKey = (id: string): string => connection.key('mcp', 'session', id);
  const channel = connection.key('mcp', 'sessions');
  const listeners = new Set<(notice: McpSessionNotice) => void>();
  const stop = subscribeChannel(connection, channel, (text) => {
    if (text.length > MAX_NOTICE_CHARS) return;
    let parsed: { from?: unknown; notice?: McpSessionNotice };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.from === replicaId || typeof parsed.notice?.id !== 'string') return;
    for (const listener of listeners) listener(parsed.notice);
  });
  const announce = async (notice: McpSessionNotice): Promise<void> => {
    await commands.publish(channel, JSON.stringify({ from: replicaId, notice }));
  };
  const read = async (id: string, idleMs: number): Promise<McpSessionRecord | undefined> => {
    const result = await commands.multi().hgetall(recordKey(id)).pexpire(recordKey(id), idleMs).exec();
    const fields = result?.[0]?.[1] as Record<string, string> | undefined;
    const init = fields?.['init'];
    if (fields === undefined || init === undefined) return undefined;
    const { initialize, protocolVersion, subject } = JSON.parse(init) as Pick<McpSessionRecord, 'initialize' | 'protocolVersion' | 'subject'>;
    const state = Object.entries(fields)
      .filter(([field]) => field.startsWith(STATE_FIELD))
      .map(([, value]) => JSON.parse(value) as McpSessionRequest);
    return { initialize, protocolVersion, state, ...(typeof subject === 'string' ? { subject } : {}) };
  };
  return {
    replicaId,
    async create(id, record, idleMs) {
      const fields: Record<string, string> = { init: JSON.stringify({ initialize: record.initialize, protocolVersion: record.protocolVersion, subject: record.subject }) };
      for (const request of record.state) fields[stateField(request)] = JSON.stringify(request);
      await commands.multi().hset(recordKey(id), fields).pexpire(recordKey(id), idleMs).exec();
    },
    get: read,
    async touch(id, idleMs) {
      await commands.pexpire(recordKey(id), idleMs);
    },
    async change(id, request, idleMs) {
      const key = recordKey(id);
      if ((await commands.exists(key)) === 0) return;
      const field = stateField(request);
      if (request.method === 'resources/unsubscribe') await commands.multi().hdel(key, field).pexpire(key, idleMs).exec();
      else await commands.multi().hset(key, field, JSON.stringify(request)).pexpire(key, idleMs).exec();
      await announce({ type: 'changed', id, request });
    },
    async end(id) {
      await commands.del(recordKey(id));
      await announce({ type: 'ended', id });
    },
    async forward(id, message) {
      await announce({ type: 'message', id, message });
    },
    onNotice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await stop();
    },
  };
}
