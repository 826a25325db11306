/**
 * The checks behind rich results, one by one: media signatures, declared output schemas refused at
 * load when they could hurt (regexes, refs, no object root, too big), the mcp-content envelope's caps,
 * and workspace file URIs. The daemon-level behaviour is in test/server/mcp-rich-results.test.ts.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseToolOverrides } from '../../src/introspect/overrides.ts';
import { parseCliSpec } from '../../src/introspect/spec-schema.ts';
import { MAX_MEDIA_BYTES, sniffMediaType } from '../../src/results/media-types.ts';
import { readMediaOutput } from '../../src/results/media-output.ts';
import { readMcpContent } from '../../src/results/mcp-content.ts';
import { resolveWorkspaceFileUri, workspaceFileUri } from '../../src/results/result-parts.ts';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-rich-unit-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const bytes = (...values: Array<number | string>): Uint8Array =>
  Uint8Array.from(values.flatMap((value) => (typeof value === 'string' ? [...value].map((char) => char.charCodeAt(0)) : [value])));

describe('media signatures', () => {
  it.each([
    ['image/png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ['image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0)],
    ['image/gif', bytes('GIF87a')],
    ['image/webp', bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 ')],
    ['audio/wav', bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt ')],
    ['audio/ogg', bytes('OggS', 0)],
    ['audio/flac', bytes('fLaC')],
    ['audio/mpeg', bytes('ID3', 4, 0)],
    ['audio/mpeg', bytes(0xff, 0xfb, 0x90)],
  ])('knows %s by its leading bytes', (type, data) => {
    expect(sniffMediaType(data)).toBe(type);
  });

  it('takes text, JSON, a short RIFF and an SVG for no media (SVG only when declared)', () => {
    for (const text of ['hello', '{"a":1}', 'RIFF', '<svg xmlns="http://www.w3.org/2000/svg"/>', '']) expect(sniffMediaType(bytes(text))).toBeUndefined();
    expect(readMediaOutput(bytes('<?xml version="1.0"?>\n<svg width="1"/>'), false, 'image/svg+xml', true)).toMatchObject({ ok: true, part: { type: 'image', mime_type: 'image/svg+xml' } });
    expect(readMediaOutput(bytes('<html></html>'), false, 'image/svg+xml', true)).toMatchObject({ ok: false });
  });

  it('refuses media past MAX_MEDIA_BYTES even under a larger output limit', () => {
    const big = new Uint8Array(MAX_MEDIA_BYTES + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const read = readMediaOutput(big, false, undefined, true);
    expect(read).toMatchObject({ ok: false });
    expect(read?.ok === false && read.message).toContain(`more than the ${MAX_MEDIA_BYTES} bytes an image result may have`);
  });
});

describe('output_schema in .tool.json and --help-json', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } } };

  it('is taken in both places, and applied to the spec', () => {
    expect(parseToolOverrides({ output_schema: schema }).output_schema).toEqual(schema);
    const spec = parseCliSpec({ name: 'x', output_schema: schema, output_media_type: 'image/png', output: 'mcp-content' });
    expect(spec.ok && spec.spec).toMatchObject({ output_schema: schema, output_media_type: 'image/png', output: 'mcp-content' });
  });

  it.each([
    [{ type: 'array' }, /must have "type": "object" at its root/],
    [{ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, /must not use "pattern"/],
    [{ type: 'object', patternProperties: { '^x': {} } }, /must not use "patternProperties"/],
    [{ type: 'object', properties: { a: { $ref: '#' } } }, /must not use "\$ref"/],
    [{ type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } }, /is not a valid JSON Schema/],
    [{ type: 'object', properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string' }])) }, /too many values/],
  ])('refuses a schema that could hurt or cannot work: %#', (outputSchema, message) => {
    expect(() => parseToolOverrides({ output_schema: outputSchema })).toThrow(message);
  });

  it('keeps a property named "pattern" (property names are data)', () => {
    expect(() => parseToolOverrides({ output_schema: { type: 'object', properties: { pattern: { type: 'string' } } } })).not.toThrow();
  });

  it('takes output_files as at most 16 globs of at most 200 characters', () => {
    expect(parseToolOverrides({ output_files: ['out/*.png'] }).output_files).toEqual(['out/*.png']);
    expect(() => parseToolOverrides({ output_files: ['x'.repeat(201)] })).toThrow(/output_files\.0/);
    expect(() => parseToolOverrides({ output_files: Array.from({ length: 17 }, () => '*') })).toThrow(/output_files/);
  });

  it('takes only the media types it can check', () => {
    expect(() => parseToolOverrides({ output_media_type: 'text/html' })).toThrow(/output_media_type/);
  });
});

describe('the mcp-content envelope caps', () => {
  it('refuses an image larger than MAX_MEDIA_BYTES before decoding it', async () => {
    const data = 'A'.repeat(Math.ceil((MAX_MEDIA_BYTES + 3) / 3) * 4);
    const read = await readMcpContent(JSON.stringify({ content: [{ type: 'image', data, mimeType: 'image/png' }] }), workspace);
    expect(read).toMatchObject({ ok: false });
    expect(read.ok === false && read.message).toContain(`content.0.data: must decode to at most ${MAX_MEDIA_BYTES} bytes`);
  });

  it('refuses JSON nested past the shape limits', async () => {
    const deep = `{"content": [], "structuredContent": ${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`;
    expect(await readMcpContent(deep, workspace)).toMatchObject({ ok: false, message: expect.stringContaining('nested too deep') });
  });
});

describe('workspace file URIs', () => {
  it('round-trips a path with spaces and non-ASCII names', () => {
    const uri = workspaceFileUri('out/my report ü.txt');
    expect(uri).toBe('file:///out/my%20report%20%C3%BC.txt');
    expect(resolveWorkspaceFileUri(workspace, uri)).toEqual({ ok: true, relativePath: 'out/my report ü.txt', hostPath: join(workspace, 'out', 'my report ü.txt') });
  });

  it.each(['file:///a/../../x', 'file:///%2e%2e/x', 'file:///a%2fb', 'file:///a%5c..%5cb', 'file:///a%00b', 'file:///a//b', 'file:///a?x=1', 'file://host/a', 'file:///%zz'])('refuses %s', (uri) => {
    expect(resolveWorkspaceFileUri(workspace, uri).ok).toBe(false);
  });
});
