/**
 * deploy/config.example.json: loads through the real config loader (loadConfigFile, then resolveConfig
 * with no flags or environment), and sets every key the loader accepts. The key list is derived by
 * walking the loader's own zod schema (configFileSchema), so a key added to the loader without an
 * example fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configFileSchema, loadConfigFile, resolveConfig } from '../../src/config.ts';
import { PROJECT_ROOT } from '../cli/run-cli.ts';

const EXAMPLE = join(PROJECT_ROOT, 'deploy', 'config.example.json');
/**
 * Identity mode (`auth`, `principals`) replaces the static `token`, so it has its own example; every
 * key the loader accepts is set in one of the two, and both load.
 */
const IDENTITY_EXAMPLE = join(PROJECT_ROOT, 'deploy', 'config.identity.example.json');

/** Keys the loader accepts that configure nothing: `$schema` is an editor's hint. */
const NOT_SETTINGS = new Set(['$schema']);

/**
 * Every key path a schema accepts, `*` standing for a record key or an array item, e.g.
 * `policies.*.network.headers.*.*`. Wrappers (optional, default, effects, nullable) are seen through;
 * a union contributes the paths of each option.
 */
function schemaKeyPaths(schema: z.ZodTypeAny, prefix = ''): string[] {
  const join = (key: string): string => (prefix === '' ? key : `${prefix}.${key}`);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schemaKeyPaths(schema.unwrap(), prefix);
  if (schema instanceof z.ZodDefault) return schemaKeyPaths(schema.removeDefault(), prefix);
  if (schema instanceof z.ZodEffects) return schemaKeyPaths(schema.innerType(), prefix);
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as z.ZodTypeAny[]).flatMap((option) => schemaKeyPaths(option, prefix)))];
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).flatMap(([key, value]) => {
      const nested = schemaKeyPaths(value, join(key));
      return nested.length > 0 ? nested : [join(key)];
    });
  }
  if (schema instanceof z.ZodRecord) {
    const nested = schemaKeyPaths(schema.valueSchema as z.ZodTypeAny, join('*'));
    return nested.length > 0 ? nested : [join('*')];
  }
  if (schema instanceof z.ZodArray) return schemaKeyPaths(schema.element as z.ZodTypeAny, join('*'));
  return [];
}

/** Every leaf key path a JSON value sets, in the same `*` notation. */
function valueKeyPaths(value: unknown, prefix = '', inRecord: (path: string) => boolean = () => false): string[] {
  const join = (key: string): string => (prefix === '' ? key : `${prefix}.${key}`);
  if (Array.isArray(value)) return value.flatMap((item) => valueKeyPaths(item, join('*'), inRecord));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => {
      const path = inRecord(prefix) ? join('*') : join(key);
      const nested = valueKeyPaths(item, path, inRecord);
      return nested.length > 0 ? nested : [path];
    });
  }
  return [];
}

/** The key paths (in `*` notation) under which the schema has a record: their keys are free names. */
function recordPaths(schema: z.ZodTypeAny, prefix = ''): string[] {
  const join = (key: string): string => (prefix === '' ? key : `${prefix}.${key}`);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return recordPaths(schema.unwrap(), prefix);
  if (schema instanceof z.ZodDefault) return recordPaths(schema.removeDefault(), prefix);
  if (schema instanceof z.ZodEffects) return recordPaths(schema.innerType(), prefix);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodTypeAny[]).flatMap((option) => recordPaths(option, prefix));
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).flatMap(([key, value]) => recordPaths(value, join(key)));
  if (schema instanceof z.ZodRecord) return [prefix, ...recordPaths(schema.valueSchema as z.ZodTypeAny, join('*'))];
  if (schema instanceof z.ZodArray) return recordPaths(schema.element as z.ZodTypeAny, join('*'));
  return [];
}

describe('deploy/config.example.json', () => {
  const accepted = schemaKeyPaths(configFileSchema).filter((path) => !NOT_SETTINGS.has(path));

  it('the schema walk finds the loader keys, nested ones included (so the coverage check below means something)', () => {
    expect(accepted).toEqual(expect.arrayContaining(['port', 'limits.max_dispatch_calls', 'approval_timeout_ms', 'shell.network', 'quotas.*.queue_timeout_ms', 'policies.*.network.headers.*.*', 'approvals.*.argv_prefix']));
    expect(accepted.length).toBeGreaterThan(40);
  });

  it('loads through the real config loader, with paths made absolute and nothing left over', () => {
    const file = loadConfigFile(EXAMPLE);
    expect(file.workspace).toBe('/var/lib/toolhost/workspace');
    const resolved = resolveConfig({ configFile: EXAMPLE, env: {}, cwd: PROJECT_ROOT });
    expect(resolved.configFile).toBe(EXAMPLE);
    expect(resolved.host).toMatchObject({ workspaceRoot: '/var/lib/toolhost/workspace', approvalTimeoutMs: 120_000, shell: { network: 'none' } });
    expect(resolved.server).toMatchObject({ host: '127.0.0.1', port: 7411, maxDispatchCalls: 64 });
  });

  it('the identity-mode example loads too, with identity mode on', () => {
    const resolved = resolveConfig({ configFile: IDENTITY_EXAMPLE, env: {}, cwd: PROJECT_ROOT });
    expect(resolved.identity?.auth).toMatchObject({ issuer: 'https://sso.example.com/realms/tools', audience: 'https://toolhost.example.com/mcp' });
    expect(resolved.identity?.principals?.length).toBeGreaterThan(0);
  });

  it('sets every key the loader accepts (in one of the two examples)', () => {
    const records = new Set(recordPaths(configFileSchema));
    const set = new Set([EXAMPLE, IDENTITY_EXAMPLE].flatMap((file) => valueKeyPaths(JSON.parse(readFileSync(file, 'utf8')) as unknown, '', (path) => records.has(path))));
    const missing = accepted.filter((path) => !set.has(path));
    expect(missing).toEqual([]);
  });

  it('the coverage check fails for an example without a key (a key dropped from the example is caught)', () => {
    const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, Record<string, unknown>>;
    delete example['limits']?.['max_dispatch_calls'];
    delete example['approval_timeout_ms'];
    const records = new Set(recordPaths(configFileSchema));
    const identity: unknown = JSON.parse(readFileSync(IDENTITY_EXAMPLE, 'utf8'));
    const set = new Set([...valueKeyPaths(example, '', (path) => records.has(path)), ...valueKeyPaths(identity, '', (path) => records.has(path))]);
    expect(accepted.filter((path) => !set.has(path))).toEqual(['limits.max_dispatch_calls', 'approval_timeout_ms']);
  });
});
