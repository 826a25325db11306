/**
 * The network rules on their own: allow-list entry forms and matching, the private-address classes,
 * policy validation of the network fields, and the wasi:http body types' error codes.
 */
import { describe, expect, it } from 'vitest';
import { parsePolicy, resolvePolicy } from '../../src/policy.ts';
import { specialAddressClass } from '../../src/wasm/net/address-class.ts';
import { matchAllowList, parseAllowEntry, parseAllowList } from '../../src/wasm/net/allow-list.ts';
import { checkDestination } from '../../src/wasm/net/destination.ts';
import { addressText, ipAddressOf } from '../../src/wasm/net/ip-address.ts';
import { redactSecretBytes } from '../../src/wasm/net/redact-bytes.ts';
import { networkCallOptions, resolveNetworkHeaders } from '../../src/wasm/net/call-options.ts';
import { httpTypesImports, IncomingBody, OutgoingBody } from '../../src/wasm/wasi/http.ts';

describe('allow-list entries', () => {
  it('parses host, host:port, wildcards, schemes and IP literals', () => {
    expect(parseAllowEntry('API.Example.com')).toMatchObject({ host: 'api.example.com', wildcard: false, port: undefined, scheme: undefined });
    expect(parseAllowEntry('https://api.example.com:8443')).toMatchObject({ host: 'api.example.com', port: 8443, scheme: 'https' });
    expect(parseAllowEntry('*.example.com')).toMatchObject({ host: 'example.com', wildcard: true });
    expect(parseAllowEntry('10.0.0.5:80')).toMatchObject({ host: '10.0.0.5', ip: true, port: 80 });
    expect(parseAllowEntry('[FD00::1]:8443')).toMatchObject({ host: 'fd00::1', ip: true, port: 8443 });
    expect(parseAllowEntry('bücher.example')).toMatchObject({ host: 'xn--bcher-kva.example' });
  });

  it('refuses what is not an entry', () => {
    for (const bad of ['*', '*.com', 'ftp://x.example', 'x.example/path', 'user@x.example', 'x.example:0', 'x.example:70000', 'a..b', '*.10.0.0.1']) {
      expect(typeof parseAllowEntry(bad), bad).toBe('string');
    }
  });

  it('matches ports, schemes and wildcard suffixes, preferring an exact entry', () => {
    const entries = parseAllowList(['*.example.com', 'api.example.com:8443', 'http://plain.example', '10.0.0.5']);
    const match = (scheme: 'http' | 'https' | undefined, host: string, port: number) => matchAllowList(entries, { scheme, host, port })?.text;
    expect(match('https', 'a.b.example.com', 443)).toBe('*.example.com');
    expect(match('https', 'example.com', 443)).toBeUndefined();
    expect(match('https', 'api.example.com', 8443)).toBe('api.example.com:8443');
    expect(match('https', 'api.example.com', 22)).toBeUndefined();
    expect(match('http', 'plain.example', 80)).toBe('http://plain.example');
    expect(match('https', 'plain.example', 443)).toBeUndefined();
    expect(match('http', '10.0.0.5', 80)).toBe('10.0.0.5');
    expect(match(undefined, '10.0.0.5', 22)).toBeUndefined();
    expect(match('https', 'evil-example.com', 443)).toBeUndefined();
  });
});

describe('private-address guard', () => {
  it('classifies loopback, private, link-local, metadata and mapped forms', () => {
    expect(specialAddressClass('127.0.0.1')).toBe('loopback');
    expect(specialAddressClass('::1')).toBe('loopback');
    expect(specialAddressClass('10.1.2.3')).toBe('private');
    expect(specialAddressClass('192.168.1.1')).toBe('private');
    expect(specialAddressClass('172.31.0.1')).toBe('private');
    expect(specialAddressClass('169.254.169.254')).toBe('cloud-metadata');
    expect(specialAddressClass('169.254.1.1')).toBe('link-local');
    expect(specialAddressClass('fd00::1')).toBe('private');
    expect(specialAddressClass('fe80::1')).toBe('link-local');
    expect(specialAddressClass('::ffff:127.0.0.1')).toBe('loopback');
    expect(specialAddressClass('::ffff:a9fe:a9fe')).toBe('cloud-metadata');
    expect(specialAddressClass('0.0.0.0')).toBe('unspecified');
    expect(specialAddressClass('8.8.8.8')).toBeUndefined();
    expect(specialAddressClass('2606:4700:4700::1111')).toBeUndefined();
  });

  it('drops special addresses unless the entry is exact, and connects to the address it checked', async () => {
    const pinned = ['10.0.0.7', '93.184.216.34'];
    expect(await checkDestination({ host: 'x.example', exact: false, pinned, timeoutMs: 1000 })).toEqual({ ok: true, target: { address: '93.184.216.34', family: 4 } });
    expect(await checkDestination({ host: 'x.example', exact: true, pinned, timeoutMs: 1000 })).toEqual({ ok: true, target: { address: '10.0.0.7', family: 4 } });
    const refused = await checkDestination({ host: 'x.example', exact: false, pinned: ['169.254.169.254'], timeoutMs: 1000 });
    expect(refused).toMatchObject({ ok: false, error: { tag: 'destination-IP-prohibited' }, address: '169.254.169.254' });
    expect(await checkDestination({ host: '127.0.0.1', exact: false, pinned: undefined, timeoutMs: 1000 })).toMatchObject({ ok: false, error: { tag: 'destination-IP-prohibited' } });
    expect(await checkDestination({ host: 'localhost', exact: false, pinned: undefined, timeoutMs: 5000 })).toMatchObject({ ok: false, error: { tag: 'destination-IP-prohibited' } });
  });
});

describe('secret redaction in responses', () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const bytes = (value: string) => new TextEncoder().encode(value);
  it('replaces every occurrence, longest secret first, and a partial secret at a cut end', () => {
    expect(text(redactSecretBytes(bytes('a=s3cret b=s3cret'), ['s3cret']))).toBe('a=[REDACTED] b=[REDACTED]');
    expect(text(redactSecretBytes(bytes('key s3cret-long'), ['s3cret', 's3cret-long']))).toBe('key [REDACTED]');
    expect(text(redactSecretBytes(bytes('tail s3c'), ['s3cret'], true))).toBe('tail [REDACTED]');
    expect(text(redactSecretBytes(bytes('tail s3c'), ['s3cret'], false))).toBe('tail s3c');
    const untouched = bytes('nothing here');
    expect(redactSecretBytes(untouched, ['s3cret'])).toBe(untouched);
  });
});

describe('socket addresses', () => {
  it('converts between text and the glue\'s shapes', () => {
    expect(ipAddressOf('10.1.2.3')).toEqual({ tag: 'ipv4', val: [10, 1, 2, 3] });
    expect(ipAddressOf('fd00::1')).toEqual({ tag: 'ipv6', val: [0xfd00, 0, 0, 0, 0, 0, 0, 1] });
    expect(ipAddressOf('::1')).toEqual({ tag: 'ipv6', val: [0, 0, 0, 0, 0, 0, 0, 1] });
    for (const text of ['10.1.2.3', 'fd00::1', '::1', '2001:db8:1:2:3:4:5:6', '::ffff:7f00:1']) expect(addressText(ipAddressOf(text))).toBe(text);
  });
});

describe('network policy fields', () => {
  it('validates entries, headers and pinned addresses', () => {
    expect(() => parsePolicy({ network: { allow: ['*'] } })).toThrow(/network\.allow\.0/);
    expect(() => parsePolicy({ network: { allow: ['a.example'], headers: { 'b.example': { authorization: 'x' } } } })).toThrow(/network\.headers\.b\.example.*not in network\.allow/);
    expect(() => parsePolicy({ network: { allow: ['a.example'], headers: { 'a.example': { 'bad name': 'x' } } } })).toThrow(/header names/);
    expect(() => parsePolicy({ network: { allow: ['a.example:8443'], headers: { 'a.example': { authorization: 'x' } } } })).not.toThrow();
    expect(() => parsePolicy({ network: { allow: ['a.example:8443'], headers: { 'a.example:9000': { authorization: 'x' } } } })).toThrow(/not in network\.allow/);
    expect(() => parsePolicy({ network: { allow: ['a.example'], resolve: { 'a.example': ['not-an-ip'] } } })).toThrow(/IP address/);
    expect(() => parsePolicy({ network: { allow: ['a.example'], connect_timeout_ms: 0 } })).toThrow(/connect_timeout_ms/);
    const policy = parsePolicy({ network: { allow: ['*.example.com'], headers: { 'api.example.com': { Authorization: 'Bearer <secret_ref:TOKEN>' } }, request_timeout_ms: 5000 } });
    const resolved = resolvePolicy(policy, '/workspace');
    expect(resolved.network.request_timeout_ms).toBe(5000);
    const options = networkCallOptions(resolved.network);
    expect(options).toMatchObject({ requestTimeoutMs: 5000, connectTimeoutMs: 5000, maxResponseBodyBytes: 10 * 1024 * 1024 });
    expect(options.headers).toEqual([{ host: 'api.example.com', port: undefined, name: 'authorization', value: undefined, missingSecrets: ['TOKEN'], secret: true, secretValues: [] }]);
    const withSecret = resolveNetworkHeaders(resolved.network, { resolve: () => 's3cret' });
    expect(withSecret.headers[0]).toMatchObject({ value: 'Bearer s3cret', missingSecrets: [], secret: true, secretValues: ['s3cret'] });
    expect(withSecret.used.get('TOKEN')).toBe('s3cret');
  });
});

describe('wasi:http bodies', () => {
  it('a capped response body ends with a stream error whose http-error-code is HTTP-response-body-size', () => {
    const stream = new IncomingBody(new Uint8Array([1, 2, 3]), 3).stream();
    expect([...stream.read(10n)]).toEqual([1, 2, 3]);
    let thrown: unknown;
    try {
      stream.read(10n);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ tag: 'last-operation-failed' });
    expect(httpTypesImports.httpErrorCode((thrown as { val: never }).val)).toEqual({ tag: 'HTTP-response-body-size', val: 3n });
    expect(() => stream.read(10n)).toThrow(expect.objectContaining({ tag: 'closed' }) as never);
  });

  it('an outgoing body past its cap fails the write and the finish', () => {
    const body = new OutgoingBody();
    body.buffer.cap = 4;
    const out = body.write();
    out.write(new Uint8Array(4));
    expect(() => out.write(new Uint8Array(1))).toThrow();
    expect(() => OutgoingBody.finish(body, undefined)).toThrow();
  });
});
