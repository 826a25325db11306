/**
 * `argv_prefix` approval rules on one simple command (see shell-script.ts): does it run a program
 * whose words start with the rule's words?
 *
 * Two questions, for the two kinds of rule:
 * - `mayRun` (ask, deny) answers yes unless the command surely does not: yes when its words start
 *   with the prefix (the first word compared as written or by its base name, so `/usr/bin/git` is
 *   `git`); when a word the prefix is compared with is not literal (`$(echo git) push`, `$CMD`, `g*`);
 *   when the command is unreadable; when it runs code the parser cannot see (`eval`, `source`, `.`,
 *   shells such as `sh` or `bash` with any arguments, `awk`, interpreters given inline code such as
 *   `python -c` or `node -e`); and when it is a wrapper (`env`, `sudo`, `timeout`, `xargs`, `find`, ...)
 *   and any later word begins the prefix, is not literal, or is one of those.
 * - `surelyRuns` (allow) answers yes only when the command's words, all literal, start exactly with
 *   the prefix, it sets no variables, and it redirects output to no file but /dev/null.
 */
import type { ShellRedirect, ShellWord, SimpleCommand } from './shell-script.ts';

/** Shells: whatever they run comes from a file, stdin or a string the rule cannot see. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell']);
/** Commands that run code given as text. */
const OPAQUE = new Set(['eval', 'source', '.', 'alias', 'trap', 'awk', 'gawk', 'mawk', 'nawk', 'expect', 'watch', 'script', 'parallel', 'su', 'sg', 'at', 'batch']);
/** Commands that run another command given in their arguments. */
const WRAPPERS = new Set([
  'env', 'command', 'builtin', 'exec', 'nice', 'nohup', 'time', 'timeout', 'xargs', 'sudo', 'doas', 'stdbuf', 'ionice', 'chrt',
  'taskset', 'setsid', 'setpriv', 'unshare', 'nsenter', 'chroot', 'flock', 'strace', 'ltrace', 'unbuffer', 'firejail', 'bwrap',
  'systemd-run', 'runuser', 'numactl', 'fakeroot', 'proot', 'torsocks', 'proxychains', 'proxychains4', 'find', 'ssh', 'busybox',
  'valgrind', 'caffeinate', 'catchsegv', 'coproc',
]);
/** Interpreters and the short options (alone or last in a group) or long options that give them inline code. */
const INLINE_CODE: ReadonlyArray<[RegExp, string, readonly string[]]> = [
  [/^(python[0-9.]*|pypy[0-9.]*)$/, 'c', []],
  [/^perl[0-9.]*$/, 'eE', []],
  [/^ruby[0-9.]*$/, 'e', []],
  [/^(node|nodejs|bun)$/, 'ep', ['--eval', '--print']],
  [/^deno$/, 'e', ['eval']],
  [/^php[0-9.]*$/, 'r', []],
  [/^(lua[0-9.]*|luajit)$/, 'e', []],
  [/^Rscript$/, 'e', []],
  [/^osascript$/, 'e', []],
];

function baseName(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

/** The words from the command word on (leading assignments dropped). */
export function commandArgv(command: SimpleCommand): ShellWord[] {
  let first = 0;
  while (first < command.words.length && (command.words[first] as ShellWord).assignment) first += 1;
  return command.words.slice(first);
}

/** The command as run, after quote removal: its argv joined by single spaces (expansions as written). */
export function commandLine(command: SimpleCommand): string {
  return commandArgv(command)
    .map((word) => word.text)
    .join(' ');
}

function runsInlineCode(name: string, argv: readonly ShellWord[], start: number): boolean {
  for (const [pattern, letters, longOptions] of INLINE_CODE) {
    if (!pattern.test(name)) continue;
    for (let index = start + 1; index < argv.length; index += 1) {
      const word = (argv[index] as ShellWord).text;
      if (longOptions.some((option) => word === option || word.startsWith(`${option}=`))) return true;
      if (/^-[A-Za-z]+$/.test(word) && [...letters].some((letter) => word.includes(letter))) return true;
    }
    return false;
  }
  return false;
}

/** Whether argv[start...] may begin with the prefix: true on a match, and on a word whose value is unknown. */
function prefixMayStart(argv: readonly ShellWord[], start: number, prefix: readonly string[]): boolean {
  for (let index = 0; index < prefix.length; index += 1) {
    const word = argv[start + index];
    if (word === undefined) return false;
    if (!word.literal) return true;
    const wanted = prefix[index] as string;
    if (index === 0 ? word.text !== wanted && baseName(word.text) !== wanted : word.text !== wanted) return false;
  }
  return true;
}

/** Whether the word at `index` runs code the rule cannot see (or may be anything). */
function opaqueAt(argv: readonly ShellWord[], index: number): boolean {
  const word = argv[index] as ShellWord;
  if (!word.literal) return true;
  const name = baseName(word.text);
  return SHELLS.has(name) || OPAQUE.has(name) || runsInlineCode(name, argv, index);
}

/** For ask and deny rules: true unless this command surely runs nothing that starts with `prefix`. */
export function mayRun(command: SimpleCommand, prefix: readonly string[]): boolean {
  if (command.unreadable !== undefined) return true;
  const argv = commandArgv(command);
  if (argv.length === 0) return false;
  if (prefixMayStart(argv, 0, prefix) || opaqueAt(argv, 0)) return true;
  if (!WRAPPERS.has(baseName((argv[0] as ShellWord).text))) return false;
  for (let index = 1; index < argv.length; index += 1) {
    if (prefixMayStart(argv, index, prefix) || opaqueAt(argv, index)) return true;
  }
  return false;
}

/** Redirections that write no file but /dev/null (duplicating a descriptor, reading, here-documents). */
function writesNoFile(redirect: ShellRedirect): boolean {
  const operator = redirect.operator.replace(/^[0-9]+/, '');
  if (operator === '<' || operator === '<<' || operator === '<<-' || operator === '<<<' || operator === '<&') return true;
  if (operator === '>&') return redirect.target.literal && /^([0-9]+|-)$/.test(redirect.target.text);
  return redirect.target.literal && redirect.target.text === '/dev/null';
}

/** For allow rules: true only when this command surely runs exactly a program whose words start with `prefix`. */
export function surelyRuns(command: SimpleCommand, prefix: readonly string[]): boolean {
  if (command.unreadable !== undefined) return false;
  const { words } = command;
  if (words.length < prefix.length || words[0]?.assignment) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    const word = words[index] as ShellWord;
    if (!word.literal || word.text !== prefix[index]) return false;
  }
  return command.redirects.every(writesNoFile);
}
