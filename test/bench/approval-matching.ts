/**
 * How long approval rules take on a model's worst arguments (they run on the daemon's thread before
 * every call). Two tables, best of BENCH_RUNS (3):
 * - globs on 120 KB values: the linear matcher (src/approvals/glob.ts), and the regex compiler it
 *   replaced where that finishes (it is skipped on the shapes that backtrack for minutes);
 * - ApprovalRules.decide on 64 KiB shell commands (the cap): reading the script plus glob and
 *   argv_prefix rules, next to the time to split the same text on newlines, a floor for any reader.
 * Run: node --import tsx test/bench/approval-matching.ts
 */
import { compileGlob } from '../../src/approvals/glob.ts';
import { ApprovalRules } from '../../src/approvals/rules.ts';
import { globToRegExp } from '../approvals/glob-regex-oracle.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 3);

function best(action: () => void): number {
  let fastest = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    action();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const globCases: Array<[pattern: string, value: string, regexToo: boolean]> = [
  ['*git*push*', 'git'.repeat(40_000), true],
  ['*git*push*', 'gitpus'.repeat(20_000), true],
  ['*a*a*a*a*a*b', 'a'.repeat(120_000), false],
  ['*[a-z]?x*[a-z]?z*', 'abq'.repeat(40_000), false],
  ['*?*?*?*?*!', 'x'.repeat(120_000), false],
  ['git push*', `git push ${'x'.repeat(120_000)}`, true],
];

console.log(`${'glob'.padEnd(22)} ${'value'.padEnd(14)} ${'size'.padStart(8)} ${'linear ms'.padStart(10)} ${'regex ms'.padStart(10)}`);
for (const [pattern, value, regexToo] of globCases) {
  const test = compileGlob(pattern);
  const linearMs = best(() => test(value));
  let regexMs = 'skipped';
  if (regexToo) {
    const regex = globToRegExp(pattern);
    regexMs = best(() => regex.test(value)).toFixed(1);
  }
  console.log(`${pattern.padEnd(22)} ${JSON.stringify(value.slice(0, 8)).padEnd(14)} ${String(value.length).padStart(8)} ${linearMs.toFixed(2).padStart(10)} ${regexMs.padStart(10)}`);
}

const rules = new ApprovalRules([
  { tool: 'shell', match: { command: 'git push*' }, action: 'ask' },
  { tool: 'shell', argv_prefix: ['git', 'push'], action: 'ask' },
  { tool: 'shell', match: { command: '*[a-z]?x*y' }, action: 'deny' },
  { tool: 'shell', argv_prefix: ['git'], action: 'allow' },
  { tool: 'shell', match: { command: 'git *' }, action: 'allow' },
]);
const size = 64 * 1024;
const fill = (unit: string): string => unit.repeat(Math.floor(size / unit.length));
const scripts: Array<[string, string]> = [
  ['16K simple commands', fill('git;')],
  ['16K lines', fill('git\n')],
  ['one 64 KiB word list', fill('git ')],
  ['nested $( (unreadable)', fill('$(')],
  ['backquotes', fill('echo `')],
  ['quoted words', fill('"a b" ')],
  ['case items', fill('case x in a) ')],
  ['here-documents', fill('cat <<E\n')],
  ['redirections', fill('>a ')],
  ['unclosed quotes, 32 resumes', fill('"x\n')],
];
console.log(`\n${'shell command'.padEnd(30)} ${'size'.padStart(8)} ${'decide ms'.padStart(10)} ${'split ms'.padStart(10)}`);
for (const [title, command] of scripts) {
  const decideMs = best(() => rules.decide('shell', { command }));
  const splitMs = best(() => command.split('\n').map((line) => line.trim()));
  console.log(`${title.padEnd(30)} ${String(command.length).padStart(8)} ${decideMs.toFixed(1).padStart(10)} ${splitMs.toFixed(1).padStart(10)}`);
}
