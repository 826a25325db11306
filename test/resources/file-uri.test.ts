/** The lexical gate of workspace URIs: every traversal spelling is refused before anything is opened. */
import { describe, expect, it } from 'vitest';
import { MAX_URI_CHARS, parseWorkspaceUri, workspaceUri } from '../../src/resources/file-uri.ts';
import { ResourceError } from '../../src/resources/types.ts';

function refusal(uri: string): ResourceError {
  try {
    parseWorkspaceUri(uri);
  } catch (error) {
    if (error instanceof ResourceError) return error;
    throw error;
  }
  throw new Error(`${uri} was accepted`);
}

describe('parseWorkspaceUri', () => {
  it('maps file:///{path} to the workspace-relative path, decoding once', () => {
    expect(parseWorkspaceUri('file:///src/index.ts')).toBe('src/index.ts');
    expect(parseWorkspaceUri('FILE:///README.md')).toBe('README.md');
    expect(parseWorkspaceUri('file:///name%20with%20space.txt')).toBe('name with space.txt');
    expect(parseWorkspaceUri('file:///src%2Fnested%2Fdeep.txt')).toBe('src/nested/deep.txt');
    // Decoded once: %252e%252e is the literal name "%2e%2e", not "..".
    expect(parseWorkspaceUri('file:///%252e%252e/x')).toBe('%2e%2e/x');
    expect(parseWorkspaceUri('file:///')).toBe('.');
    expect(parseWorkspaceUri('file:///...')).toBe('...');
  });

  it('round-trips workspaceUri for awkward names', () => {
    for (const name of ['a b/c#d?.txt', 'ü/ñ.md', '%41.txt', 'x/100%.txt']) expect(parseWorkspaceUri(workspaceUri(name))).toBe(name);
  });

  it.each([
    ['file:///../etc/passwd', 'REFUSED'],
    ['file:///a/../../etc/passwd', 'REFUSED'],
    ['file:///%2e%2e/etc/passwd', 'REFUSED'],
    ['file:///%2E%2e%2Fetc%2Fpasswd', 'REFUSED'],
    ['file:///a%2F..%2F..%2Fetc', 'REFUSED'],
    ['file:///./a', 'REFUSED'],
    ['file:///a/.', 'REFUSED'],
    ['file:////etc/passwd', 'REFUSED'],
    ['file:///%2Fetc%2Fpasswd', 'REFUSED'],
    ['file:///a//b', 'REFUSED'],
    ['file:///a/', 'REFUSED'],
    ['file:///a%00b', 'REFUSED'],
    ['file://localhost/etc/passwd', 'INVALID_URI'],
    ['file://evil.example/share/x', 'INVALID_URI'],
    ['file://', 'INVALID_URI'],
    ['file:///a?b', 'INVALID_URI'],
    ['file:///a#b', 'INVALID_URI'],
    ['file:///%E0%A4%A', 'INVALID_URI'],
    ['http:///a', 'INVALID_URI'],
    ['file:/a', 'INVALID_URI'],
  ])('refuses %s (%s)', (uri, code) => {
    expect(refusal(uri).code).toBe(code);
  });

  it('refuses an overlong URI without decoding it', () => {
    expect(refusal(`file:///${'a/'.repeat(MAX_URI_CHARS)}`).code).toBe('INVALID_URI');
  });
});
