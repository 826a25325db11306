/**
 * Source patches applied to jco's generated glue before it is cached.
 *
 * empty-string-realloc: jco 1.11's `utf8Encode` skips the guest's `realloc` for an empty string and
 * returns pointer 1. The preview1 adapter relies on that realloc call to place each environment
 * entry's terminator, so an empty value (`A=`) swallowed the next variable (the guest saw `A=B=1`).
 * Calling realloc for zero-length strings too is valid canonical ABI and fixes it.
 *
 * exact-exit-code: the preview1 adapter's `proc_exit` maps every non-zero code to
 * `wasi:cli/exit.exit(err)`, i.e. 1. Every place the glue hands the adapter's `proc_exit` to a core
 * module is wrapped so the guest's code goes to the host's `exit-with-code` first (which unwinds the
 * call with that code); a host without `exitWithCode` gets the adapter's behaviour.
 *
 * The version also names the wasip1 wrapping (guest-memory.ts), which shapes the cached output too.
 */
export const GLUE_PATCH_VERSION = 'empty-string-realloc-1+exact-exit-code-1+guest-memory-2';

const EMPTY_STRING_SHORTCUT = /if \(s\.length === 0\) \{\s*utf8EncodedLen = 0;\s*return 1;\s*\}/g;
const INSTANTIATE_HEADER = /^(export function instantiate\(getCoreModule, imports[^)]*\)[^{]*\{)/m;
const ADAPTER_PROC_EXIT = /\b(exports\d+)\.proc_exit\b/g;

const PROC_EXIT_HELPER = `
  const toolhostProcExit = (adapterProcExit) => (code) => {
    const exitImports = imports['wasi:cli/exit'];
    if (typeof exitImports?.exitWithCode === 'function') exitImports.exitWithCode((code >>> 0) & 0xff);
    return adapterProcExit(code);
  };`;

export function patchGlue(source: string): string {
  let patched = source.replace(EMPTY_STRING_SHORTCUT, '');
  if (INSTANTIATE_HEADER.test(patched) && patched.includes('.proc_exit')) {
    patched = patched.replace(INSTANTIATE_HEADER, `$1${PROC_EXIT_HELPER}`).replace(ADAPTER_PROC_EXIT, 'toolhostProcExit($1.proc_exit)');
  }
  return patched;
}
