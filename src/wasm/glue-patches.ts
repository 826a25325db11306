/**
 * Source patches applied to jco's generated glue before it is cached.
 *
 * empty-string-realloc: jco 1.11's `utf8Encode` skips the guest's `realloc` for an empty string and
 * returns pointer 1. The preview1 adapter relies on that realloc call to place each environment
 * entry's terminator, so an empty value (`A=`) swallowed the next variable (the guest saw `A=B=1`).
 * Calling realloc for zero-length strings too is valid canonical ABI and fixes it.
 */
export const GLUE_PATCH_VERSION = 'empty-string-realloc-1';

const EMPTY_STRING_SHORTCUT = /if \(s\.length === 0\) \{\s*utf8EncodedLen = 0;\s*return 1;\s*\}/g;

export function patchGlue(source: string): string {
  return source.replace(EMPTY_STRING_SHORTCUT, '');
}
