/**
 * Registry credentials from the usual places, read only when a registry asks for them (a 401):
 * - `REGISTRY_AUTH_FILE` (the containers-auth.json file podman, skopeo and buildah use), then
 * - `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`: `auths["<registry>"]` with `auth`
 *   (base64 `user:password`), `username` + `password`, or `identitytoken`; `credHelpers["<registry>"]`
 *   or `credsStore` run `docker-credential-<name> get` as Docker does.
 *
 * Credentials are data for the HTTP layer only: they never go into an error, a log line or the lockfile.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type RegistryCredential = { kind: 'basic'; username: string; password: string } | { kind: 'identity-token'; token: string };

/** Looks up the credential for one registry (`host[:port]`). */
export type CredentialSource = (registry: string) => RegistryCredential | undefined;

/** Auth files larger than this are ignored (they are a few kilobytes). */
const MAX_AUTH_FILE_BYTES = 1024 * 1024;
/** How long a credential helper may take. */
const HELPER_TIMEOUT_MS = 10_000;

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
  identitytoken?: unknown;
}

interface AuthFile {
  auths?: Record<string, AuthEntry>;
  credHelpers?: Record<string, string>;
  credsStore?: string;
}

function readAuthFile(path: string): AuthFile | undefined {
  try {
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path);
    if (text.length > MAX_AUTH_FILE_BYTES) return undefined;
    const value: unknown = JSON.parse(text.toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as AuthFile) : undefined;
  } catch {
    return undefined;
  }
}

/** `registry`, `https://registry`, `http://registry`, `https://registry/v1/`, … all name the same entry. */
function entryFor<T>(table: Record<string, T> | undefined, registry: string): T | undefined {
  if (table === undefined || typeof table !== 'object') return undefined;
  for (const [key, value] of Object.entries(table)) {
    const host = key.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
    if (host === registry) return value;
  }
  return undefined;
}

function fromEntry(entry: AuthEntry | undefined): RegistryCredential | undefined {
  if (entry === undefined || typeof entry !== 'object' || entry === null) return undefined;
  if (typeof entry.identitytoken === 'string' && entry.identitytoken !== '') return { kind: 'identity-token', token: entry.identitytoken };
  if (typeof entry.auth === 'string' && entry.auth !== '') {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { kind: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (typeof entry.username === 'string' && typeof entry.password === 'string') return { kind: 'basic', username: entry.username, password: entry.password };
  return undefined;
}

/** Runs `docker-credential-<helper> get`; undefined when it is missing or has nothing. */
function fromHelper(helper: string, registry: string, env: NodeJS.ProcessEnv): RegistryCredential | undefined {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(helper)) return undefined;
  const result = spawnSync(`docker-credential-${helper}`, ['get'], { input: registry, env, timeout: HELPER_TIMEOUT_MS, maxBuffer: 64 * 1024, encoding: 'utf8' });
  if (result.status !== 0 || typeof result.stdout !== 'string') return undefined;
  try {
    const value = JSON.parse(result.stdout) as { Username?: unknown; Secret?: unknown };
    if (typeof value.Secret !== 'string' || value.Secret === '') return undefined;
    if (value.Username === '<token>') return { kind: 'identity-token', token: value.Secret };
    return typeof value.Username === 'string' ? { kind: 'basic', username: value.Username, password: value.Secret } : undefined;
  } catch {
    return undefined;
  }
}

/** The credential source of a process environment (see the module header for the order). */
export function defaultCredentialSource(env: NodeJS.ProcessEnv = process.env): CredentialSource {
  return (registry) => {
    const files: string[] = [];
    if ((env['REGISTRY_AUTH_FILE'] ?? '') !== '') files.push(env['REGISTRY_AUTH_FILE']!);
    const dockerDir = (env['DOCKER_CONFIG'] ?? '') !== '' ? env['DOCKER_CONFIG']! : join(env['HOME'] ?? homedir(), '.docker');
    files.push(join(dockerDir, 'config.json'));
    for (const path of files) {
      const file = readAuthFile(path);
      if (file === undefined) continue;
      const helper = entryFor(file.credHelpers, registry);
      if (typeof helper === 'string') {
        const found = fromHelper(helper, registry, env);
        if (found !== undefined) return found;
      }
      const direct = fromEntry(entryFor(file.auths, registry));
      if (direct !== undefined) return direct;
      if (typeof file.credsStore === 'string') {
        const stored = fromHelper(file.credsStore, registry, env);
        if (stored !== undefined) return stored;
      }
    }
    return undefined;
  };
}
