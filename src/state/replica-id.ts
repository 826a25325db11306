/**
 * A replica's id: what `/healthz` reports, what every fleet-wide event carries (`replica`), and the
 * owner other replicas see on its shared state (quota slots, background processes). From env
 * `TOOLHOST_REPLICA_ID` (e.g. the pod name on Kubernetes), else the hostname plus 6 random hex
 * digits (so a restarted replica is a new one). Letters, digits, `.`, `_`, `-`; at most 128 characters.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ToolHostError } from '../errors.ts';

export const REPLICA_ID_ENV = 'TOOLHOST_REPLICA_ID';
const REPLICA_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** hostname (a pod name on Kubernetes) + `-` + 6 random hex digits. */
export function defaultReplicaId(): string {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100) || 'toolhost';
  return `${host}-${randomBytes(3).toString('hex')}`;
}

/**
 * The replica id the environment names, else a default one.
 * @throws ToolHostError('CONFIG_INVALID') when TOOLHOST_REPLICA_ID is set but not a valid id.
 */
export function replicaIdFrom(env: Readonly<Record<string, string | undefined>>): string {
  const named = env[REPLICA_ID_ENV];
  if (named === undefined || named === '') return defaultReplicaId();
  if (!REPLICA_ID.test(named)) throw new ToolHostError('CONFIG_INVALID', `${REPLICA_ID_ENV} must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  return named;
}
