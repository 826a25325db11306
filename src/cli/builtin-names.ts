/**
 * The built-in tools' names, known without importing them: a one-shot `toolhost call` of a wasm tool
 * needs only to know that its name is not a built-in's (built-ins keep their names), and loading the
 * built-ins costs more start-up than the call itself. test/cli/builtin-names.test.ts keeps this list
 * equal to `builtinTools`.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = Object.freeze([
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'glob',
  'grep',
  'shell',
  'process',
  'search_tools',
  'run_code',
]);
