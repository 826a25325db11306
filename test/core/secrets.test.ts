import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolHostError } from '../../src/errors.ts';
import { createSecretsResolver, findSecretRefs, redactSecrets, redactText, substituteSecrets } from '../../src/secrets.ts';

describe('secrets', () => {
  it('reads prefixed environment variables only', () => {
    const resolver = createSecretsResolver({ env: { TOOLHOST_SECRET_A: 'one', B: 'two' } });
    expect(resolver.resolve('A')).toBe('one');
    expect(resolver.resolve('B')).toBeUndefined();
  });

  it('reads a secrets file whose entries win over the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-secrets-'));
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ A: 'from-file' }));
    const resolver = createSecretsResolver({ env: { TOOLHOST_SECRET_A: 'from-env' }, file });
    expect(resolver.resolve('A')).toBe('from-file');
  });

  it('rejects a malformed secrets file with a typed error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-secrets-'));
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ A: 5 }));
    expect(() => createSecretsResolver({ file })).toThrow(ToolHostError);
    writeFileSync(file, '{oops');
    expect(() => createSecretsResolver({ file })).toThrow(/Cannot read secrets file/);
  });

  it('finds, substitutes and redacts placeholders deeply', () => {
    const resolver = createSecretsResolver({ env: { TOOLHOST_SECRET_K: 'abc', TOOLHOST_SECRET_LONG: 'abcdef' } });
    const value = { headers: ['x <secret_ref:K>', { y: '<secret_ref:LONG>' }] };
    expect(findSecretRefs(value)).toEqual(['K', 'LONG']);
    const substitution = substituteSecrets(value, resolver);
    expect(substitution.ok && substitution.value).toEqual({ headers: ['x abc', { y: 'abcdef' }] });
    if (!substitution.ok) throw new Error('expected ok');
    // The longer secret is redacted whole, not as "[REDACTED:K]def".
    expect(redactSecrets('abcdef and abc', substitution.used)).toBe('[REDACTED:LONG] and [REDACTED:K]');
  });

  it('redacts secrets used as object keys, not only values', () => {
    const used = new Map([['TOKEN', 'hunter2-secret']]);
    const result = redactSecrets({ content: 'ok', metadata: { 'hunter2-secret': 1, nested: { 'key hunter2-secret': 'hunter2-secret' } } }, used);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(result.metadata).toEqual({ '[REDACTED:TOKEN]': 1, nested: { 'key [REDACTED:TOKEN]': '[REDACTED:TOKEN]' } });
  });

  it('redacts partial secrets only at the edges where a text was cut', () => {
    const used = new Map([['TOKEN', 'abcdef123456']]);
    expect(redactText('value=abcdef1', used, { cutAtEnd: true })).toBe('value=[REDACTED:TOKEN]');
    expect(redactText('123456 tail', used, { cutAtStart: true })).toBe('[REDACTED:TOKEN] tail');
    expect(redactText('value=abcdef1', used)).toBe('value=abcdef1');
    expect(redactText('x abcdef123456 y', used)).toBe('x [REDACTED:TOKEN] y');
  });
});
